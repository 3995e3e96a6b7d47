/**
 * What one exchange shows of each reading point (rules/readings.ts), for the fingerprint
 * (rules/fingerprint.ts). Each detector notes a value only where the answer tells the values apart; a
 * point whose evidence needs two answers (a username created twice, a page past the end read against the
 * page count's base) keeps a few facts in `state` and is decided in `finishNotes`.
 */
import type { Exchange } from '../port.js';
import { at, isObject } from './inspect-json.js';
import { asList, is2xx, isAsideStatus, methodIs, sentWithoutAuth } from './inspect.js';
import { isCreatePath, isSettingsPath, profileItem, PROFILE_TYPE_HYPHEN } from './inspect-paths.js';
import { pathOf, readLink } from './inspect-wire.js';
import { classifyCreateBody } from './profile-request.js';
import { isJsonMediaType } from '../media-types.js';
import { MIN_PASSWORD_LENGTH } from '../limits.js';
import { passwordCounts } from '../redacted.js';
import { ev, parsed, requestData, type PointNotes } from './fingerprint-notes.js';
import { idCase, listRead, origin } from './fingerprint-lists.js';

export type { PointNotes } from './fingerprint-notes.js';

export function observeExchange(ex: Exchange, n: PointNotes): void {
  const path = pathOf(ex.request.url);
  if (path.startsWith('/__sim/')) {
    // The simulator's operator moving the soft limit: reads past it are judged against the new one.
    const raised = at(requestData(ex) ?? parsed(ex.request.body), 'page_offset_limit');
    if (path === '/__sim/settings' && is2xx(ex.response.status) && typeof raised === 'number') n.state.softLimit = raised;
    // A state put back or made anew: the limit is the one the next settings answer shows, 10,000 until then.
    else if (/^\/__sim\/(restore|reset|seed)$/.test(path) && is2xx(ex.response.status)) n.state.softLimit = undefined;
    return;
  }
  // The token endpoint is not the API: its answers keep their own wire form.
  if (path === '/oauth/access_token') {
    const status = ex.response.status;
    if (methodIs(ex, 'POST') && status === 404) n.note('token.endpoint', 'absent', ev(ex));
    else if (methodIs(ex, 'POST') && (is2xx(status) || status === 400 || status === 401)) n.note('token.endpoint', 'present', ev(ex));
    return;
  }
  if (n.options.wire) wire(ex, n);
  const type = (ex.response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (is2xx(ex.response.status) && ex.json !== undefined) mediaType(ex, type, n);
  if (isSettingsPath(path)) settings(ex, n);
  if (ex.response.status >= 400) errorBody(ex, n);
  if (methodIs(ex, 'GET')) {
    if (sentWithoutAuth(ex) && !isSettingsPath(path)) {
      if (ex.response.status === 401) n.note('auth.reads', 'required', ev(ex));
      else if (ex.response.status === 200 && asList(ex.json) !== undefined) n.note('auth.reads', 'optional', ev(ex));
    }
    if (asList(ex.json) !== undefined || ex.response.status >= 400) listRead(ex, path, n);
  }
  if (methodIs(ex, 'POST') && isCreatePath(path)) create(ex, path, n);
  if (methodIs(ex, 'PUT') && profileItem(path) !== undefined) update(ex, path, n);
}

// ---------------------------------------------------------------- the wire

function wire(ex: Exchange, n: PointNotes): void {
  const h = ex.response.headers;
  const gzip = /\bgzip\b/i.test(h['content-encoding'] ?? '');
  const asked = Object.entries(ex.request.headers ?? {}).some(([k, v]) => k.toLowerCase() === 'accept-encoding' && /\bgzip\b/i.test(v));
  if (ex.response.body !== '') {
    const g = (n.state.gzip ??= {});
    if (asked && gzip) g.askedGot ??= ev(ex, 'gzip when asked');
    else if (asked) g.askedNot ??= ev(ex, 'identity though gzip was asked for');
    else if (gzip) g.unaskedGot ??= ev(ex, 'gzip without Accept-Encoding');
  }
  const connection = (h['connection'] ?? '').toLowerCase();
  n.note('connection', connection.includes('close') ? 'close' : 'keep-alive', ev(ex, connection === '' ? 'no Connection header' : `Connection: ${connection}`));
}

function mediaType(ex: Exchange, type: string, n: PointNotes): void {
  if (type === 'application/json' || type === 'application/vnd.api+json') n.note('media-type', type, ev(ex, `Content-Type ${type}`));
  else n.unknown('media-type', ev(ex, `Content-Type ${type === '' ? 'absent' : type}`));
}

// ---------------------------------------------------------------- settings and errors

function settings(ex: Exchange, n: PointNotes): void {
  if (methodIs(ex, 'GET')) {
    if (ex.response.status === 200) n.note('settings.path', '/v2/settings', ev(ex));
    else if (ex.response.status === 404) n.note('settings.path', 'hidden', ev(ex));
  }
  const limit = at(ex.json, 'data', 'page_offset_limit');
  if (is2xx(ex.response.status) && typeof limit === 'number' && Number.isInteger(limit) && limit > 0) n.state.softLimit = limit;
}

function errorBody(ex: Exchange, n: PointNotes): void {
  const json = ex.json;
  if (!isObject(json)) return;
  const type = (ex.response.headers['content-type'] ?? '').toLowerCase();
  const errors = json['errors'];
  if (Array.isArray(errors) && isObject(errors[0])) {
    const status = errors[0]['status'];
    if (typeof status === 'number') n.note('errors.format', 'errors-array', ev(ex, 'errors[].status a number'));
    else if (typeof status === 'string') n.note('errors.format', 'errors-array-text-status', ev(ex, 'errors[].status a string'));
    else n.unknown('errors.format', ev(ex, 'errors[] without a status'));
  } else if (isObject(json['error']) && 'code' in json['error']) n.note('errors.format', 'error-object', ev(ex, '{"error": {"code", ...}}'));
  else if (type.startsWith('application/problem+json') || ('title' in json && 'status' in json && !('data' in json))) n.note('errors.format', 'problem-json', ev(ex, 'a problem document'));
  else n.unknown('errors.format', ev(ex, `members ${Object.keys(json).slice(0, 5).join(', ')}`));
}

// ---------------------------------------------------------------- creates and updates

const parentOf = (path: string): string => path.replace(/\/$/, '');

function create(ex: Exchange, path: string, n: PointNotes): void {
  const status = ex.response.status;
  if (isAsideStatus(status) || status === 404 || status >= 500) return;
  const body = classifyCreateBody(ex);
  const data = isObject(at(ex.json, 'data')) ? at(ex.json, 'data') : undefined;
  const createdId = at(data, 'id');
  if (typeof createdId === 'string') idCase(ex, createdId, n);
  const self = readLink(at(ex.json, 'links'), 'self');
  if (self.kind === 'url') origin(ex, self.url, n);
  const contentType = Object.entries(ex.request.headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  if (!isJsonMediaType(contentType) && (ex.request.body ?? '') !== '') {
    if (status === 415) n.note('create.media-type', 'strict', ev(ex, `Content-Type ${contentType ?? 'absent'}`));
    else n.note('create.media-type', 'lenient', ev(ex, `Content-Type ${contentType ?? 'absent'}`));
    return;
  }
  const username = at(requestData(ex), 'username');
  const key = typeof username === 'string' ? `${parentOf(path)}\u0000${username}` : undefined;
  const used = (n.state.usernames ??= new Set());
  const repeat = key !== undefined && used.has(key);
  if (repeat && (body.kind === 'valid' || body.kind === 'unclear')) duplicate(ex, status, n, 201);
  if (key !== undefined && is2xx(status) && used.size < 10_000) used.add(key);
  if (repeat) return;
  if (body.kind === 'valid' && at(body.data, 'type') === PROFILE_TYPE_HYPHEN) {
    if (is2xx(status)) n.note('create.hyphen-type', 'accept', ev(ex));
    else if (status === 400 || status === 422) n.note('create.hyphen-type', 'refuse', ev(ex));
  }
  const password = at(requestData(ex), 'password');
  if (typeof password !== 'string') return;
  // Read back from a HAR, a redacted password's mark keeps its counts; one that kept none says nothing.
  const counts = passwordCounts(password);
  if (counts === undefined) return;
  const fieldsOk = ['type', 'password_profile_id', 'username'].every((f) => typeof at(requestData(ex), f) === 'string' && at(requestData(ex), f) !== '');
  if (!fieldsOk) return;
  const least = Math.min(...Object.values(counts));
  const most = Math.max(...Object.values(counts));
  if (most < MIN_PASSWORD_LENGTH && (status === 400 || status === 422)) n.note('errors.validation-status', String(status), ev(ex, `a ${most}-character password`));
  if (least < MIN_PASSWORD_LENGTH && most >= MIN_PASSWORD_LENGTH && (is2xx(status) || status === 400 || status === 422)) {
    const accepted = is2xx(status);
    const fits = Object.entries(counts)
      .filter(([, c]) => c >= MIN_PASSWORD_LENGTH === accepted)
      .map(([k]) => k);
    const open = (n.state.characters ??= new Set(['graphemes', 'code-points', 'code-units']));
    for (const k of [...open]) if (!fits.includes(k)) open.delete(k);
    const evidence = (n.state.charactersEvidence ??= []);
    if (evidence.length < 3) evidence.push(ev(ex, `${JSON.stringify(counts)} ${accepted ? 'accepted' : 'refused'}`));
  }
}

function update(ex: Exchange, path: string, n: PointNotes): void {
  const item = profileItem(path);
  const username = at(requestData(ex), 'username');
  if (item === undefined || typeof username !== 'string') return;
  const parent = path.slice(0, path.lastIndexOf('/'));
  const key = `${parent}\u0000${username}`;
  const used = (n.state.usernames ??= new Set());
  if (used.has(key)) duplicate(ex, ex.response.status, n, 200);
  else if (is2xx(ex.response.status) && used.size < 10_000) used.add(key);
}

function duplicate(ex: Exchange, status: number, n: PointNotes, created: number): void {
  if (status === created || is2xx(status)) n.note('usernames', 'repeat', ev(ex, 'a username held already, accepted'));
  else if (status === 409) n.note('usernames', 'conflict', ev(ex, 'a username held already'));
  else if (status === 422) n.note('usernames', 'invalid', ev(ex, 'a username held already'));
}

// ---------------------------------------------------------------- decided at the end

/** Points whose evidence needs the whole run: ids per collection, page.current past the end, password characters, compression, the offset edge. */
export function finishNotes(n: PointNotes): void {
  const reasons = (n.state.reasons ??= new Map());
  const forms = n.state.idForms;
  if (forms !== undefined && forms.size === 3) {
    const single = (p: string) => {
      const m = forms.get(p);
      return m !== undefined && m.size === 1 ? [...m][0] : undefined;
    };
    const [a, o, f] = ['/v2/accounts', '/v2/orders', '/v2/files'].map(single);
    const evidence = [a, o, f].map((x) => x?.[1] ?? '').join('; ');
    if (a === undefined || o === undefined || f === undefined) n.unknown('ids.format', [...forms].map(([p, m]) => `${p}: ${[...m.keys()].join(', ')}`).join('; '));
    else if (a[0] === o[0] && o[0] === f[0] && ['uuid', 'prefixed', 'numeric'].includes(a[0])) n.note('ids.format', a[0], evidence);
    else if (a[0] === 'uuid' && o[0] === 'prefixed' && f[0] === 'numeric') n.note('ids.format', 'per-collection', evidence);
    else n.unknown('ids.format', evidence);
  }
  const base = readBase(n);
  for (const p of n.state.pastEnd ?? []) {
    if (base === undefined) {
      reasons.set('page.current-past-end', 'reads past the last page were seen, but no read at offset 0 showed how pages are counted');
      continue;
    }
    const counted = p.counted + base;
    const capped = p.last + base;
    if (counted === capped) continue;
    if (p.current === counted) n.note('page.current-past-end', 'counted', p.evidence);
    else if (p.current === capped) n.note('page.current-past-end', 'capped', p.evidence);
    else n.unknown('page.current-past-end', p.evidence);
  }
  const open = n.state.characters;
  if (open !== undefined) {
    const evidence = (n.state.charactersEvidence ?? []).join('; ');
    const [only] = [...open];
    if (open.size === 0) n.unknown('password.characters', evidence);
    else if (open.size === 1 && only !== undefined) n.note('password.characters', only, evidence);
    else reasons.set('password.characters', `the creates seen leave ${[...open].join(' or ')} open (${evidence})`);
  }
  const g = n.state.gzip;
  if (g?.unaskedGot !== undefined) n.note('compression', 'always', g.unaskedGot);
  else if (g?.askedGot !== undefined) n.note('compression', 'on-request', g.askedGot);
  else if (g?.askedNot !== undefined) n.note('compression', 'never', g.askedNot);
  else if (n.options.wire) reasons.set('compression', 'no request asked for gzip, and none was sent it unasked: never or on request');
  for (const [key, e] of n.state.edge ?? []) {
    const hard = key.startsWith('hard');
    const limit = Number(key.split('@')[1]);
    // At the limit itself a read is within it, or past it and answered as reads past it are (refused, empty, or served).
    const past = n.seen.get(hard ? 'offset.past-hard' : 'offset.past-soft');
    const pastServes = past === undefined || past.has('serve');
    for (const at of e.at) {
      if (at.status >= 400 && at.status < 500) n.note('offset.edge', 'exclusive', at.evidence);
      else if (at.status === 200 && at.records > 0 && (hard || !pastServes)) n.note('offset.edge', 'inclusive', `${at.evidence}: ${at.records} records`);
      else if (at.status === 200 && at.records === 0 && at.total !== undefined && at.total > limit) n.note('offset.edge', 'exclusive', `${at.evidence}: no records of ${at.total}`);
      else if (at.status === 200 && e.past !== undefined && e.past.status >= 400 && e.past.status < 500) n.note('offset.edge', 'inclusive', `${at.evidence}; ${e.past.evidence}`);
    }
  }
}

function readBase(n: PointNotes): number | undefined {
  const values = n.seen.get('page.current');
  if (values === undefined || values.size !== 1) return undefined;
  return values.has('one-based') ? 1 : values.has('zero-based') ? 0 : undefined;
}
