/**
 * The simulator's surfaces. `full` answers everything the public API does (docs/api-notes.md); `documented`
 * answers only what commerce-api.md states (its own reading, below) and refuses the rest with a JSON 404, 405
 * or 400, so the kit can be proven on a deployment that implements the document and nothing more.
 * The token endpoint and the admin API stay: they are how a client and a test get in, not the API.
 */
import { bodyShapeProblem } from '../engine/field-limits.js';
import { parseInstantNs } from '../engine/instants.js';
import type { ReadingChoice } from '../rules/readings.js';
import { error } from './respond.js';
import type { SimRequest, SimResponse } from './messages.js';
import { OFFSET_LIMIT } from '../limits.js';

export type Surface = 'full' | 'documented';
export const SURFACES: readonly Surface[] = ['full', 'documented'];

export function isSurface(text: string): text is Surface {
  return (SURFACES as readonly string[]).includes(text);
}

/**
 * The simulator's own reading of what commerce-api.md shows, apart from the kit's request classifier
 * (rules/surface.ts), so that proving the kit against this surface is not proving it against itself:
 * GET of the three list paths the text names (§4.2), `page[limit]` and `page[offset]` as digits given
 * once, and on /v2/accounts (§4.3's example) an ascending `sort` on id, created_at or updated_at and one
 * `gt`/`ge` clause on those with a value of the attribute's kind; and the create (§4.1), trailing slash
 * or not, a JSON body with the underscore type and no query. A test shows the two readings agree on
 * every request of the shipped suite.
 */
const LIST_PATHS = new Set(['/v2/accounts', '/v2/orders', '/v2/files']);
const CREATE_PATH = /^\/v2\/authentication-realms\/[^/]+\/user-authentication-info\/[^/]+\/user-authentication-password-profile-info$/;
const SORTABLE = new Set(['id', 'created_at', 'updated_at']);
const LIST_PARAMETERS = new Set(['page[limit]', 'page[offset]', 'sort', 'filter']);
const DIGITS = /^\d{1,15}$/;
const CLAUSE = /^(gt|ge)\(([a-z_]+),(.+)\)$/;
const HYPHEN_TYPE = 'user-authentication-password-profile-info';

/** The refusal of a request outside the document, or undefined when the simulator serves it. */
export function refuseUndocumented(req: SimRequest): SimResponse | undefined {
  const q = req.url.indexOf('?');
  const rawPath = q < 0 ? req.url : req.url.slice(0, q);
  if (rawPath.startsWith('/__sim/') || rawPath.startsWith('/oauth/')) return undefined;
  const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
  const method = req.method.toUpperCase();
  const query = q < 0 ? '' : req.url.slice(q + 1);
  if (LIST_PATHS.has(path)) {
    if (method !== 'GET') return error('method-not-allowed', 'Use one of: GET', { allow: 'GET' });
    const problem = listQueryProblem(path, query);
    return problem === undefined ? undefined : error('bad-request', `Not part of the documented surface: ${problem}`);
  }
  if (CREATE_PATH.test(path)) {
    if (method !== 'POST') return error('method-not-allowed', 'Use one of: POST', { allow: 'POST' });
    const problem = query !== '' ? 'a query string on the create' : createBodyProblem(req.body);
    return problem === undefined ? undefined : error('bad-request', `Not part of the documented surface: ${problem}`);
  }
  return error('not-found', `No route for ${path} on the documented surface`);
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** What of a list query the document does not show, or undefined. */
function listQueryProblem(path: string, query: string): string | undefined {
  const seen = new Set<string>();
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = decode(eq < 0 ? '' : pair.slice(eq + 1)) ?? '';
    if (name === undefined || !LIST_PARAMETERS.has(name)) return `query parameter ${JSON.stringify(name ?? pair)}`;
    if (seen.has(name)) return `${name} given more than once`;
    seen.add(name);
    if (name === 'page[limit]' && (!DIGITS.test(value) || Number(value) === 0)) return `page[limit]=${value}`;
    if (name === 'page[offset]' && !DIGITS.test(value)) return `page[offset]=${value}`;
    // Past the soft limit what happens is not shown (§8); past the hard limit of orders and files "no records" is.
    if (name === 'page[offset]' && Number(value) > OFFSET_LIMIT && path === '/v2/accounts') return `page[offset]=${value} past the soft limit`;
    if ((name === 'sort' || name === 'filter') && path !== '/v2/accounts') return `${name} on ${path}`;
    if (name === 'sort' && !SORTABLE.has(value)) return `sort=${value}`;
    if (name === 'filter') {
      const m = CLAUSE.exec(value);
      // One clause: a second one (joined by ':') would leave a parenthesis in the value.
      if (m === null || m[2] === undefined || m[3] === undefined || !SORTABLE.has(m[2]) || /[()]/.test(m[3])) return `filter=${value}`;
      if (m[2] !== 'id' && parseInstantNs(m[3]) === undefined) return `filter value ${m[3]} is not an instant`;
    }
  }
  return undefined;
}

/** What of a create body the document does not show (not JSON, the hyphenated type), or undefined; a missing body lacks the fields §2.1 requires. */
function createBodyProblem(body: string): string | undefined {
  // A body past the shape limits is not parsed here: the create handler refuses it, naming the limit.
  if (body === '' || bodyShapeProblem(body) !== undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return 'a body that is not JSON';
  }
  const data = typeof json === 'object' && json !== null && 'data' in json ? json.data : undefined;
  return typeof data === 'object' && data !== null && 'type' in data && data.type === HYPHEN_TYPE ? 'the hyphenated type' : undefined;
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
