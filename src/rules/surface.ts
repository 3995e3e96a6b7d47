/**
 * The documented surface: every request about which commerce-api.md states what must hold, and a
 * classifier that tells, for any request, whether it stays inside and which parts do not.
 *
 * A verdict on a documented rule may rest only on requests inside this surface (rules/judge.ts); the
 * scenarios and property generators build their probes of documented rules from it; the simulator's
 * `--surface documented` answers only it. Each part outside names the assumed rule that covers it,
 * so an observation that cannot judge a documented rule still lands somewhere.
 *
 * Inside means "the document constrains the answer", not "the answer is a success": a password of
 * 7 characters, a missing Authorization header on the create, `page[limit]=150` and an offset past
 * the hard limit of /v2/orders are inside, because §2.1, §5 and §8 state what must (not) happen.
 */
import { isObject } from './inspect-json.js';
import { DEFAULT_PAGE_LENGTH, documentedListPath, instantOf, MAX_PAGE_LENGTH, OFFSET_LIMIT, PROFILE_TYPE_HYPHEN, profilePath } from './inspect-paths.js';
import { pathOf, queryParams } from './inspect-wire.js';
import type { TargetRequest } from '../port.js';
import type { RuleId } from './ids.js';

// ---------------------------------------------------------------- the description

/** The list paths the document shows in its text (§4.2): the only list paths a documented verdict uses. */
export const SHOWN_LIST_PATHS = ['/v2/accounts', '/v2/orders', '/v2/files'] as const;
/** The path the document shows the sort-and-filter pattern on (§4.3). */
export const SORT_FILTER_PATH = '/v2/accounts';
/** The sortable attributes §4.2 and §4.3 name. */
export const SORTABLE_ATTRIBUTES = ['id', 'created_at', 'updated_at'] as const;
/** The comparison operators §4.2 names. */
export const COMPARISON_OPERATORS = ['gt', 'ge'] as const;
/** The query parameters §4.2 names for list endpoints. */
const LIST_PARAMETERS = ['page[limit]', 'page[offset]', 'sort', 'filter'] as const;
/** §8: the offset limit is hard on these paths. */
const HARD_LIMIT_PATHS = ['/v2/orders', '/v2/files'] as const;

export type SortableAttribute = (typeof SORTABLE_ATTRIBUTES)[number];
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

/** The operations the document states: the create (§4.1) and the paginated list reads (§4.2). */
type DocumentedOperation = { readonly kind: 'create' } | { readonly kind: 'list'; readonly path: (typeof SHOWN_LIST_PATHS)[number] };

/** One part of a request outside the documented surface. */
export interface SurfaceGap {
  readonly part: 'operation' | 'auth' | 'query' | 'page[limit]' | 'page[offset]' | 'sort' | 'filter' | 'body';
  /** What is outside, for a reader: `filter operator in`, `GET /v2/customers`. */
  readonly detail: string;
  /** The assumed rule that covers this part, if any (the simulator's own admin API has none). */
  readonly coveredBy: RuleId | undefined;
  /**
   * `refusal`: the document bounds any answer the request gets, but not whether it is refused, so the
   * part is outside only for judging a refusal (`page[limit]=150`: at most 100 records, clamped or refused).
   */
  readonly when?: 'refusal';
  /** The documented rules this part is inside for (the only ones that may judge it); every other rule is outside it. */
  readonly insideFor?: readonly RuleId[];
  /** The documented rules this part is outside for (the only ones it keeps from judging). */
  readonly outsideFor?: readonly RuleId[];
}

export interface Classification {
  /** True when no part of the request is outside the documented surface, for any rule or answer. */
  readonly inside: boolean;
  readonly operation: DocumentedOperation | undefined;
  readonly gaps: readonly SurfaceGap[];
}

/**
 * The gaps of a classification that count against judging `rule` on an answer of `status`: a part
 * outside only for a refusal counts when the answer is not a 2xx; a part inside for some rules counts
 * for the others. Empty: the exchange is documented evidence for that rule.
 */
export function gapsFor(c: Classification, rule: RuleId, status: number): readonly SurfaceGap[] {
  if (c.inside) return c.gaps;
  return c.gaps.filter((g) => !(g.when === 'refusal' && status >= 200 && status < 300) && !(g.insideFor?.includes(rule) ?? false) && (g.outsideFor?.includes(rule) ?? true));
}

/** Whether an exchange is documented evidence for `rule`. */
export const insideFor = (request: RequestShape, rule: RuleId, status: number): boolean => gapsFor(classifyRequest(request), rule, status).length === 0;

/** What the classifier reads of a request: a `TargetRequest` (a simulator request fits too). */
export type RequestShape = Pick<TargetRequest, 'method' | 'url' | 'headers' | 'body' | 'auth'>;

// ---------------------------------------------------------------- the classifier

export function classifyRequest(request: RequestShape): Classification {
  const method = request.method.toUpperCase();
  const path = pathOf(request.url);
  const query = queryParams(request.url);
  const operation = documentedOperation(method, path);
  if (operation === undefined) {
    const gaps = [{ part: 'operation', detail: `${method} ${shortPath(path)}`, coveredBy: coveringOperation(method, path) } as const];
    return { inside: false, operation, gaps };
  }
  const gaps: SurfaceGap[] = [];
  const bearer = hasBearer(request);
  if (operation.kind === 'list') {
    // §5 requires the header on the create; what a read without one gets is not shown.
    if (!bearer) gaps.push({ part: 'auth', detail: 'no bearer token on a list read', coveredBy: 'auth.missing-401' });
    gaps.push(...listQueryGaps(operation.path, query));
  } else {
    if (query.size > 0) gaps.push({ part: 'query', detail: 'a query string on the create', coveredBy: undefined });
    gaps.push(...createBodyGaps(request.body));
  }
  return { inside: gaps.length === 0, operation, gaps };
}

/** `filter operator in (filter.operators); sort -created_at (sort.descending)` */
export function describeGaps(gaps: readonly SurfaceGap[]): string {
  return gaps.map((g) => (g.coveredBy === undefined ? g.detail : `${g.detail} (${g.coveredBy})`)).join('; ');
}

function documentedOperation(method: string, path: string): DocumentedOperation | undefined {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const list = SHOWN_LIST_PATHS.find((p) => p === trimmed);
  if (list !== undefined) return method === 'GET' ? { kind: 'list', path: list } : undefined;
  const profile = profilePath(path);
  if (profile !== undefined && profile.id === undefined && method === 'POST') return { kind: 'create' };
  return undefined;
}

/** The assumed rule covering an operation the document does not show. */
function coveringOperation(method: string, path: string): RuleId | undefined {
  if (path.startsWith('/__sim/')) return undefined;
  if (/^\/oauth\/access_token\/?$/.test(path)) return 'auth.token.response';
  if (/^\/v2\/settings\/?$/.test(path)) return 'settings.page-length';
  if (/^\/v2\/accounts(\/[^/]+)?\/?$/.test(path)) return 'accounts.writes';
  if (/^\/v2\/(orders|files)\/?$/.test(path)) return undefined;
  const profile = profilePath(path);
  if (profile !== undefined) {
    if (profile.id === undefined) return method === 'GET' ? 'password-profile.list' : undefined;
    if (method === 'GET') return 'password-profile.get';
    if (method === 'PUT') return 'password-profile.update';
    if (method === 'DELETE') return 'password-profile.delete';
    return undefined;
  }
  if (method === 'GET' && documentedListPath(path) !== undefined) return 'pagination.endpoints.public-paths';
  return undefined;
}

function hasBearer(request: RequestShape): boolean {
  const header = Object.entries(request.headers ?? {}).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  if (header !== undefined) return /^bearer\s+\S/i.test(header);
  // `default`: the target adds its own bearer token.
  return request.auth !== 'none';
}

// ---------------------------------------------------------------- queries

/** Plain decimal digits, as §4.2's `number` parameters are written in every example. */
const DIGITS = /^\d{1,15}$/;

/**
 * On /v2/orders and /v2/files "a hard limit of 10,000 records" may also mean no record past the 10,000th is
 * served (rules/readings.ts offset.edge): a page reaching past it may be cut there, so its record count
 * judges neither results.total nor where offsets begin.
 */
const CUT_AT_HARD_LIMIT: readonly RuleId[] = ['pagination.results.total', 'pagination.offset.records', 'pagination.limit.per-call', 'pagination.limit.default'];

function listQueryGaps(path: (typeof SHOWN_LIST_PATHS)[number], query: ReadonlyMap<string, readonly string[]>): SurfaceGap[] {
  const gaps: SurfaceGap[] = [];
  if ((HARD_LIMIT_PATHS as readonly string[]).includes(path)) {
    const offset = query.get('page[offset]')?.[0];
    const limit = query.get('page[limit]')?.[0];
    const o = offset !== undefined && DIGITS.test(offset) ? Number(offset) : 0;
    const l = limit !== undefined && DIGITS.test(limit) ? Math.min(Number(limit), MAX_PAGE_LENGTH) : DEFAULT_PAGE_LENGTH;
    if (o <= OFFSET_LIMIT && o + l > OFFSET_LIMIT) {
      gaps.push({
        part: 'page[offset]',
        detail: `a page reaching past the 10,000th record (whether it is cut there is not shown)`,
        coveredBy: 'pagination.offset-limit.hard-400',
        outsideFor: CUT_AT_HARD_LIMIT,
      });
    }
  }
  for (const [name, values] of query) {
    const value = values[0] ?? '';
    if (!(LIST_PARAMETERS as readonly string[]).includes(name)) {
      gaps.push({ part: 'query', detail: `query parameter ${JSON.stringify(name)}`, coveredBy: undefined });
      continue;
    }
    if (values.length > 1) {
      gaps.push({ part: 'query', detail: `${name} given more than once`, coveredBy: undefined });
      continue;
    }
    switch (name) {
      case 'page[limit]':
        if (!DIGITS.test(value) || Number(value) === 0) gaps.push({ part: 'page[limit]', detail: `page[limit]=${clip(value)}`, coveredBy: 'pagination.params.invalid-400' });
        // Above 100, §8 bounds the answer (at most 100 records) but not whether it is clamped or refused.
        else if (Number(value) > MAX_PAGE_LENGTH)
          gaps.push({ part: 'page[limit]', detail: `page[limit]=${value} above 100 (clamped or refused: not shown)`, coveredBy: 'pagination.limit.clamp', when: 'refusal' });
        break;
      case 'page[offset]':
        if (!DIGITS.test(value)) gaps.push({ part: 'page[offset]', detail: `page[offset]=${clip(value)}`, coveredBy: 'pagination.params.invalid-400' });
        // Past a soft limit, what happens is not shown (§8); past the hard limit, only "no records" is
        // documented: for that rule alone the request is inside.
        // Exactly 10,000 skips 10,000 records: within "a limit of 10,000 records" or just past it (not shown).
        else if (Number(value) === OFFSET_LIMIT)
          gaps.push({ part: 'page[offset]', detail: `page[offset]=${value} at the offset limit (within it or past it: not shown)`, coveredBy: 'pagination.offset-limit.soft-400', when: 'refusal' });
        else if (Number(value) > OFFSET_LIMIT) {
          const hard = (HARD_LIMIT_PATHS as readonly string[]).includes(path);
          gaps.push(
            hard
              ? {
                  part: 'page[offset]',
                  detail: `page[offset]=${value} past the hard limit (what it gets is not shown)`,
                  coveredBy: 'pagination.offset-limit.hard-400',
                  insideFor: ['pagination.offset-limit.hard'],
                }
              : { part: 'page[offset]', detail: `page[offset]=${value} past the soft limit`, coveredBy: 'pagination.offset-limit.soft-400' },
          );
        }
        break;
      case 'sort':
        gaps.push(...sortGaps(path, value));
        break;
      case 'filter':
        gaps.push(...filterGaps(path, value));
        break;
    }
  }
  return gaps;
}

function sortGaps(path: string, value: string): SurfaceGap[] {
  if (path !== SORT_FILTER_PATH) return [{ part: 'sort', detail: `sort on ${path}`, coveredBy: 'sort.attributes' }];
  const descending = value.startsWith('-');
  const attribute = descending ? value.slice(1) : value;
  if (!/^[a-z_]+$/.test(attribute)) return [{ part: 'sort', detail: `sort=${clip(value)}`, coveredBy: 'sort.invalid-400' }];
  const gaps: SurfaceGap[] = [];
  if (descending) gaps.push({ part: 'sort', detail: `descending sort=${clip(value)}`, coveredBy: 'sort.descending' });
  if (!(SORTABLE_ATTRIBUTES as readonly string[]).includes(attribute)) gaps.push({ part: 'sort', detail: `sort attribute ${attribute}`, coveredBy: 'sort.attributes' });
  return gaps;
}

/** `op(attribute,value)`: the attribute a word, the value anything but an unbalanced parenthesis. */
const CLAUSE = /^([a-z_]+)\(([a-z_.]+),(.*)\)$/;

function filterGaps(path: string, value: string): SurfaceGap[] {
  if (path !== SORT_FILTER_PATH) return [{ part: 'filter', detail: `filter on ${path}`, coveredBy: 'filter.attributes' }];
  const clauses = splitClauses(value);
  if (clauses === undefined) return [{ part: 'filter', detail: `unparseable filter=${clip(value)}`, coveredBy: 'filter.invalid-400' }];
  const gaps: SurfaceGap[] = [];
  if (clauses.length > 1) gaps.push({ part: 'filter', detail: `${clauses.length} filter clauses joined by ':'`, coveredBy: 'filter.and' });
  for (const clause of clauses) {
    const m = CLAUSE.exec(clause);
    if (m === null || m[3] === undefined || m[3] === '') {
      gaps.push({ part: 'filter', detail: `unparseable filter clause ${clip(clause)}`, coveredBy: 'filter.invalid-400' });
      continue;
    }
    const [, op = '', attribute = '', value = ''] = m;
    if (!(COMPARISON_OPERATORS as readonly string[]).includes(op)) gaps.push({ part: 'filter', detail: `filter operator ${op}`, coveredBy: 'filter.operators' });
    if (!(SORTABLE_ATTRIBUTES as readonly string[]).includes(attribute)) gaps.push({ part: 'filter', detail: `filter attribute ${attribute}`, coveredBy: 'filter.attributes' });
    // A timestamp compared with text that is no instant: what a deployment does with it is not shown.
    else if (attribute !== 'id' && instantOf(value) === undefined) gaps.push({ part: 'filter', detail: `filter value ${clip(value)} is not an ISO 8601 instant`, coveredBy: 'filter.invalid-400' });
  }
  return gaps;
}

/** Clauses split on the `:` that join them (a `:` inside a clause's parentheses is a value's, e.g. a time). */
function splitClauses(text: string): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth < 0) return undefined;
    } else if (c === ':' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) return undefined;
  out.push(text.slice(start));
  return out.some((c) => c === '') ? undefined : out;
}

// ---------------------------------------------------------------- the create body

function createBodyGaps(body: string | undefined): SurfaceGap[] {
  if (body === undefined || body === '') return []; // a missing body lacks the required fields: §2.1 speaks to it
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return [{ part: 'body', detail: 'a body that is not JSON', coveredBy: 'create.errors.malformed-json-400' }];
  }
  const data = isObject(json) ? json['data'] : undefined;
  if (isObject(data) && data['type'] === PROFILE_TYPE_HYPHEN) return [{ part: 'body', detail: 'the hyphenated type', coveredBy: 'create.type.hyphen-accepted' }];
  return [];
}

// ---------------------------------------------------------------- helpers

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function shortPath(path: string): string {
  return path.length > 120 ? `${path.slice(0, 117)}...` : path;
}

// ---------------------------------------------------------------- builders for probes

/** A documented list query (§4.2), in the order the document writes it; undefined members are left out. */
export function documentedListUrl(
  path: (typeof SHOWN_LIST_PATHS)[number],
  q: {
    readonly limit?: number;
    readonly offset?: number;
    readonly sort?: SortableAttribute;
    readonly filter?: { readonly op: ComparisonOperator; readonly attribute: SortableAttribute; readonly value: string };
  },
): string {
  const parts: string[] = [];
  if (q.limit !== undefined) parts.push(`page[limit]=${q.limit}`);
  if (q.offset !== undefined) parts.push(`page[offset]=${q.offset}`);
  if (q.sort !== undefined) parts.push(`sort=${q.sort}`);
  if (q.filter !== undefined) parts.push(`filter=${q.filter.op}(${q.filter.attribute},${encodeURIComponent(q.filter.value)})`);
  return parts.length === 0 ? path : `${path}?${parts.join('&')}`;
}
