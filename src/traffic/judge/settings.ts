/**
 * What the traffic says of a project's page length (§8: "Changeable globally per project through a
 * settings endpoint"), and of the parents a create names: pure readings of one exchange. The judge keeps
 * what they say per client and hands it to the rules as vars.
 */
import type { Exchange } from '../../port.js';
import { DEFAULT_PAGE_LENGTH } from '../../limits.js';
import { at, is2xx, isAdminWrite, isGet, isSettingsPath, methodIs, pathOf, profilePath, requestJson } from '../../rules/inspect.js';

export type SettingsEvent =
  /** The operator (the simulator's admin API) changed the server for every client: what each held is judged now. */
  | { readonly kind: 'operator'; readonly keepsPageLength: boolean; readonly stated: number | undefined }
  /** The settings endpoint said (or was told) the page length. */
  | { readonly kind: 'page-length'; readonly n: number; readonly written: boolean };

export function settingsEvent(ex: Exchange): SettingsEvent | undefined {
  if (isAdminWrite(ex)) {
    const op = pathOf(ex.request.url).replace(/\/$/, '');
    // Reset and reseed start the projects afresh (page length 25); restore and settings set it to anything; clock and adversity keep it.
    const keeps = op === '/__sim/clock' || op.startsWith('/__sim/adversity');
    const fresh = op === '/__sim/reset' || op === '/__sim/seed';
    return { kind: 'operator', keepsPageLength: keeps, stated: fresh ? DEFAULT_PAGE_LENGTH : statedPageLength(requestJson(ex)) };
  }
  if (!isSettingsPath(pathOf(ex.request.url)) || !is2xx(ex.response.status)) return undefined;
  const fromAnswer = at(ex.json, 'data', 'page_length');
  const fromRequest = methodIs(ex, 'PUT', 'PATCH', 'POST') ? at(requestJson(ex), 'data', 'page_length') : undefined;
  const n = typeof fromAnswer === 'number' ? fromAnswer : typeof fromRequest === 'number' ? fromRequest : undefined;
  return n === undefined || !Number.isInteger(n) ? undefined : { kind: 'page-length', n, written: !isGet(ex) };
}

/** The one page length an operator's restore or settings body states (every `page_length` in it agrees), else undefined. */
function statedPageLength(body: unknown): number | undefined {
  const found = new Set<unknown>();
  const visit = (v: unknown, depth: number): void => {
    if (depth > 8 || typeof v !== 'object' || v === null) return;
    for (const [k, x] of Object.entries(v)) {
      if (k === 'page_length') found.add(x);
      else visit(x, depth + 1);
    }
  };
  visit(body, 0);
  const [only] = found;
  return found.size === 1 && typeof only === 'number' && Number.isInteger(only) ? only : undefined;
}

/** The realm and user-authentication-info a request addresses, as `realm/uai`, when it names them. */
export function parentOf(ex: Exchange): { readonly key: string; readonly realm: string; readonly uai: string } | undefined {
  const p = profilePath(pathOf(ex.request.url));
  return p === undefined ? undefined : { key: `${p.realm}/${p.uai}`, realm: p.realm, uai: p.uai };
}
