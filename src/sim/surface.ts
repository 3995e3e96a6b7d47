/**
 * The simulator's surfaces. `full` answers everything the public API does (docs/api-notes.md); `documented`
 * answers only what commerce-api.md states (rules/surface.ts) and refuses the rest with a JSON 404, 405
 * or 400, so the kit can be proven on a deployment that implements the document and nothing more.
 * The token endpoint and the admin API stay: they are how a client and a test get in, not the API.
 */
import { classifyRequest, SHOWN_LIST_PATHS, unconditionalGaps } from '../rules/surface.js';
import type { ReadingChoice } from '../rules/readings.js';
import { error } from './respond.js';
import type { SimRequest, SimResponse } from './messages.js';

export type Surface = 'full' | 'documented';
export const SURFACES: readonly Surface[] = ['full', 'documented'];

export function isSurface(text: string): text is Surface {
  return (SURFACES as readonly string[]).includes(text);
}

/** The refusal of a request outside the document, or undefined when the simulator serves it. */
export function refuseUndocumented(req: SimRequest): SimResponse | undefined {
  const path = req.url.split('?')[0] ?? '';
  if (path.startsWith('/__sim/') || path.startsWith('/oauth/')) return undefined;
  const c = classifyRequest({ method: req.method, url: req.url, headers: req.headers, body: req.body });
  // Parts the document bounds for some rules or answers are served (page[limit]=150, offsets past the hard limit).
  const gaps = unconditionalGaps(c);
  if (gaps.length === 0) return undefined;
  if (c.operation === undefined) {
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    if ((SHOWN_LIST_PATHS as readonly string[]).includes(trimmed)) return error('method-not-allowed', 'Use one of: GET', { allow: 'GET' });
    if (/\/user-authentication-password-profile-info$/.test(trimmed)) return error('method-not-allowed', 'Use one of: POST', { allow: 'POST' });
    return error('not-found', `No route for ${trimmed} on the documented surface`);
  }
  // A read without a bearer token is the simulator's own 401; the other parts are refused as bad input.
  if (gaps.every((g) => g.part === 'auth')) return undefined;
  return error('bad-request', `Not part of the documented surface: ${gaps.map((g) => g.detail).join('; ')}`);
}

/**
 * Where the document leaves a choice open, the documented surface takes a conforming choice other than
 * the public API's, so a kit that relies on API-NOTES shows it: `page` and `results` at the top level
 * (§2.3: position not shown), `page.current` counted from 0, one page for an empty result, no links
 * (not in the document), record timestamps directly under `meta`. Readings the user chooses win.
 */
export const DOCUMENTED_SURFACE_READINGS: ReadingChoice = {
  'meta.position': 'top',
  'page.current': 'zero-based',
  'page.total-empty': 'one',
  links: 'absent',
  'timestamps.placement': 'meta',
};
