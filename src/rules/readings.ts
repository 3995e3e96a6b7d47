/**
 * The readings of the API document: every point commerce-api.md leaves open that a check could touch,
 * the sentence it rests on, and the answers a conforming deployment may give there. The first value of
 * each point is the public API's (docs/api-notes.md) and the simulator's default; every other value is just
 * as conforming. The simulator plays any combination (`serve --reading NAME=VALUE`, sim/readings.ts),
 * so the kit is proven on deployments that conform but are not alike (test/kit/readings.test.ts).
 *
 * A check that needs one of these to be answered one way must find what it needs wherever a reading may
 * put it, or say inconclusive: no documented verdict may depend on a reading.
 */
import type { Result } from '../result.js';
import type { RuleId } from './ids.js';

interface PointSpec {
  /** Section of commerce-api.md. */
  readonly section: string;
  /** The document's own words the point rests on (found in docs/commerce-api.md by a test). */
  readonly quote: string;
  /** The question left open, in a few words. */
  readonly question: string;
  /** The conforming answers, the public API's first, each with what it means. */
  readonly values: Readonly<Record<string, string>>;
  /**
   * Documented rules a value leaves without any documented evidence (the kit can only say
   * inconclusive on them under it), by value.
   */
  readonly blinds?: Readonly<Record<string, readonly RuleId[]>>;
}

export const READING_POINTS = {
  'meta.position': {
    section: '§2.3',
    quote: 'The exact position of the page and results attributes within the response body: not shown.',
    question: 'where page and results sit in a list body',
    values: {
      meta: 'meta.page and meta.results',
      top: 'page and results at the top level',
      nested: 'three levels down: meta.listing.paging.page and meta.listing.paging.results',
      split: 'page at the top level, results under meta',
      deep: 'twelve levels down, under meta.response.body.listing.…',
    },
  },
  'meta.numbers': {
    section: '§2.3',
    quote: 'page[limit] | Maximum records per page in this response. Settable up to 100.',
    question: 'the JSON type of the pagination members (the table gives names and meanings, no types)',
    values: { number: 'JSON numbers', string: 'numeric strings ("25")' },
  },
  'page.current': {
    section: '§2.3',
    quote: 'page[current] | The current page.',
    question: 'how pages are counted',
    values: { 'one-based': 'the first page is 1', 'zero-based': 'the first page is 0' },
  },
  'page.grid': {
    section: '§2.3',
    quote: 'page[total] | Total page count.',
    question: 'on which grid pages are counted from an offset that is not a multiple of the limit',
    values: {
      'data-set': 'pages start at multiples of the limit: total ceil(results / limit), current floor(offset / limit) + 1',
      offset: "the offset's own: a partial page before it, then full ones (total ceil(offset / limit) + ceil((results − offset) / limit), current ceil(offset / limit) + 1)",
    },
  },
  'page.current-past-end': {
    section: '§2.3',
    quote: 'page[current] | The current page.',
    question: 'page.current of a read past the last page',
    values: { counted: 'counted on from the offset, past page.total', capped: 'the last page' },
  },
  'page.total-empty': {
    section: '§2.3',
    quote: 'page[total] | Total page count.',
    question: 'the page count of an empty result',
    values: { zero: '0 pages', one: 'one (empty) page' },
  },
  links: {
    section: '§2.3',
    quote: 'The pagination fields are always present, including when the result is empty (zero results).',
    question: 'whether list answers carry links (the document shows none)',
    values: { present: 'links current, first, last, next, prev, and links.self on every item', absent: 'no links, on the list or its items' },
  },
  'links.origin': {
    section: '§2.1',
    quote: 'Its shape is {base_url}/authentication-realms/<realm_id>/user-authentication-info/<user_authentication_info_id>/user-authentication-password-profile-info/<profile_info_id>.',
    question: 'the origin of absolute links ({base_url} is not tied to the address a client typed)',
    values: { request: 'the origin the request came to (or the one a proxy forwards)', canonical: 'the deployment’s canonical origin, https://api.commerce.example, whatever address was used' },
  },
  'timestamps.precision': {
    section: '§2.1',
    quote: 'Timestamp, ISO 8601 with milliseconds and a Z suffix (<timestamp>).',
    question: 'the precision of list records’ timestamps (the format is stated for the create response only)',
    values: {
      ms: 'milliseconds, 2025-01-01T00:00:00.123Z',
      s: 'whole seconds, 2025-01-01T00:00:00Z',
      us: 'microseconds, 2025-01-01T00:00:00.123456Z',
      ns: 'nanoseconds, 2025-01-01T00:00:00.123456789Z; neighbours microseconds apart, inside one millisecond',
    },
  },
  'timestamps.placement': {
    section: '§4.3',
    quote: 'Choose a sortable attribute (for example created_at, updated_at or id).',
    question: 'where list records carry created_at and updated_at',
    values: {
      'meta.timestamps': 'meta.timestamps.created_at (accounts in the public API)',
      meta: 'meta.created_at, as the create response',
      top: 'created_at beside id',
      attributes: 'attributes.created_at, with every other attribute (JSON:API style)',
    },
  },
  'ids.format': {
    section: '§2.1',
    quote: 'Identifier of the created record (UUID-shaped, <profile_info_id>).',
    question: 'the form of list records’ ids (only the created record’s id is said to be UUID-shaped)',
    values: {
      uuid: 'UUIDs, ordered as text',
      prefixed: 'a type prefix and 32 hex digits (acc_0f3a…), ordered as text',
      numeric: 'decimal numbers of up to 39 digits, ordered as numbers',
      'per-collection': 'each collection its own: accounts UUIDs, orders prefixed, files numeric, the others in that turn',
    },
  },
  'ids.case': {
    section: '§2.1',
    quote: 'Identifier of the created record (UUID-shaped, <profile_info_id>).',
    question: 'the letter case of UUID-shaped ids',
    values: { lower: 'lower-case hex digits', upper: 'upper-case hex digits (the created record’s too)' },
  },
  'order.unsorted': {
    section: '§4.2',
    quote: 'sort | sort=<attribute> | Sorts by the attribute; common choices are created_at, updated_at, id.',
    question: 'the order of a list read without sort',
    values: { created_at: 'oldest first', id: 'by id', newest: 'newest first' },
  },
  'order.ties': {
    section: '§4.2',
    quote: 'Sorts by the attribute; common choices are created_at, updated_at, id.',
    question: 'the order of records that share the sort value',
    values: { id: 'by ascending id', 'id-desc': 'by descending id' },
  },
  'limit.above-max': {
    section: '§8',
    quote: 'Maximum page length | 100 on any paginated call.',
    question: 'what page[limit] above 100 gets ("Settable up to 100")',
    values: { clamp: 'a page of at most 100, meta limit 100', refuse: 'a 4xx error' },
  },
  'limit.zero': {
    section: '§4.2',
    quote: 'page[limit] | Optional | number | Number of records per page.',
    question: 'what page[limit]=0 gets',
    values: { refuse: 'a 4xx error', default: 'the default page length, as if absent', one: 'a page of one record (meta limit 1)' },
  },
  'offset.edge': {
    section: '§8',
    quote: 'Offset limit for other paginated endpoints | Soft limit of 10,000 records.',
    question: 'whether page[offset]=10000 itself is within the limit (it skips 10,000 records: the page starts at the 10,001st)',
    values: {
      inclusive: 'offsets up to 10,000 are within the limit',
      exclusive: 'offsets from 10,000 on are past it, and a hard-limited page stops at the 10,000th record',
    },
  },
  'offset.past-hard': {
    section: '§8',
    quote: 'What a request does when it passes a hard or soft offset limit: not shown.',
    question: 'what an offset past 10,000 on /v2/orders and /v2/files gets',
    values: { refuse: 'a 4xx error', empty: '200 with no records and the true results total' },
  },
  'offset.past-soft': {
    section: '§8',
    quote: 'What a request does when it passes a hard or soft offset limit: not shown.',
    question: 'what an offset past the soft limit gets elsewhere',
    values: { refuse: 'a 4xx error', empty: '200 with no records and the true results total', serve: 'the records (the limit is soft)' },
  },
  'password.characters': {
    section: '§2.1',
    quote: 'The password used to authenticate. Minimum 8 characters.',
    question: 'what a character of "Minimum 8 characters" is',
    values: { 'code-points': 'Unicode code points', 'code-units': 'UTF-16 code units', graphemes: 'user-perceived characters (extended grapheme clusters)' },
  },
  'errors.format': {
    section: '§7',
    quote: 'Errors: not shown. No error format, error codes or failure statuses are described.',
    question: 'the body of an error answer',
    values: {
      'errors-array': '{"errors": [{"status": 400, "title", "detail"}]}',
      'errors-array-text-status': '{"errors": [{"status": "400", "title", "detail"}]}',
      'error-object': '{"error": {"code", "message"}}',
      'problem-json': 'application/problem+json (RFC 9457): {"type", "title", "status", "detail"}',
    },
  },
  'errors.validation-status': {
    section: '§7',
    quote: 'The password has a minimum length of 8 characters, and the response to a shorter one is undefined in this document.',
    question: 'the status of a create the server does not accept',
    values: { '400': '400 Bad Request', '422': '422 Unprocessable Content' },
  },
  usernames: {
    section: '§7',
    quote: 'Errors: not shown. No error format, error codes or failure statuses are described.',
    question: 'whether a username may be created twice under one user-authentication-info',
    values: { repeat: 'created again', conflict: 'refused with 409 Conflict', invalid: 'refused with 422 Unprocessable Content' },
  },
  'create.media-type': {
    section: '§4.1',
    quote: 'Content-Type | Used in the example | string | application/json',
    question: 'what a create without a JSON media type gets',
    values: { lenient: 'the body read as JSON whatever Content-Type says', strict: '415 Unsupported Media Type' },
  },
  'create.hyphen-type': {
    section: '§2.1',
    quote: 'Treat the underscore form as the value on the wire.',
    question: 'whether the hyphenated type is accepted on input',
    values: { accept: 'created like the underscore form', refuse: 'a validation error' },
  },
  'auth.reads': {
    section: '§5',
    quote: 'The header is required on the create operation.',
    question: 'whether list reads need the Authorization header',
    values: { required: '401 without a bearer token', optional: 'served without one' },
  },
  'token.endpoint': {
    section: '§5',
    quote: 'How the token is obtained, its lifetime and its scopes: not shown.',
    question: 'whether the deployment has a token endpoint',
    values: { present: 'POST /oauth/access_token (docs/api-notes.md)', absent: 'none: tokens are given out of band (404 there)' },
  },
  'settings.path': {
    section: '§8',
    quote: 'Default page length | 25. Changeable globally per project through a settings endpoint, or per call with page[limit].',
    question: 'where the settings endpoint is',
    values: { '/v2/settings': 'GET and PUT /v2/settings', hidden: 'at a path the kit does not know (404 at /v2/settings)' },
    blinds: { hidden: ['pagination.limit.project-setting'] },
  },
  compression: {
    section: '§1',
    quote: 'The service is a commerce HTTP API with JSON bodies.',
    question: 'whether bodies are compressed (RFC 9110 §12.5.3 lets a server send a content coding not asked for)',
    values: { never: 'identity', 'on-request': 'gzip when Accept-Encoding asks for it', always: 'gzip whatever was asked' },
  },
  connection: {
    section: '§1',
    quote: 'The service is a commerce HTTP API with JSON bodies.',
    question: 'whether connections are kept open',
    values: { 'keep-alive': 'persistent connections', close: 'Connection: close on every answer' },
  },
  'media-type': {
    section: '§1',
    quote: 'The service is a commerce HTTP API with JSON bodies.',
    question: 'the media type of JSON answers',
    values: { 'application/json': 'application/json', 'application/vnd.api+json': 'application/vnd.api+json (JSON:API)' },
  },
} as const satisfies Readonly<Record<string, PointSpec>>;

export type ReadingName = keyof typeof READING_POINTS;
export type ReadingValue<N extends ReadingName> = keyof (typeof READING_POINTS)[N]['values'] & string;
/** One value for every point: what a deployment answers where the document is silent. */
export type Readings = { readonly [N in ReadingName]: ReadingValue<N> };
/** Some points set; the rest take the default. */
export type ReadingChoice = { readonly [N in ReadingName]?: ReadingValue<N> };

export const READING_NAMES = Object.keys(READING_POINTS) as readonly ReadingName[];

export function readingValues<N extends ReadingName>(name: N): readonly ReadingValue<N>[] {
  return Object.keys(READING_POINTS[name].values) as ReadingValue<N>[];
}

/** The public API's reading of every point (docs/api-notes.md): the simulator's default. */
export const DEFAULT_READINGS: Readings = Object.fromEntries(READING_NAMES.map((n) => [n, readingValues(n)[0]])) as unknown as Readings;

function isReadingName(text: string): text is ReadingName {
  return Object.hasOwn(READING_POINTS, text);
}

function isReadingValue<N extends ReadingName>(name: N, value: string): value is ReadingValue<N> {
  return Object.hasOwn(READING_POINTS[name].values, value);
}

/** Every point, the choice's value where it sets one, else the default. */
export function withDefaults(choice: ReadingChoice | undefined): Readings {
  return choice === undefined ? DEFAULT_READINGS : ({ ...DEFAULT_READINGS, ...choice } as Readings);
}

/** The points where `readings` differ from the public API's. */
export function changedReadings(readings: Readings): ReadingChoice {
  const out: Record<string, string> = {};
  for (const n of READING_NAMES) if (readings[n] !== DEFAULT_READINGS[n]) out[n] = readings[n];
  return out as ReadingChoice;
}

/** `NAME=VALUE` checked against the table; the error names the point's values. */
export function parseReading(text: string): Result<{ readonly name: ReadingName; readonly value: string }, { readonly message: string }> {
  const eq = text.indexOf('=');
  const name = eq < 0 ? text : text.slice(0, eq);
  const value = eq < 0 ? '' : text.slice(eq + 1);
  if (!isReadingName(name)) return { ok: false, message: `unknown reading '${name}' (one of: ${READING_NAMES.join(', ')})` };
  if (!isReadingValue(name, value)) return { ok: false, message: `reading ${name} takes ${readingValues(name).join(', ')}, got '${value}'` };
  return { ok: true, value: { name, value } };
}

/** A reading choice from unknown data (a dataset file's `readings:`), or the path of the first bad member. */
export function readReadingChoice(value: unknown, path: string): Result<ReadingChoice> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, path, message: 'must be an object of reading names and values' };
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (!isReadingName(name)) return { ok: false, path: `${path}.${name}`, message: `unknown reading (one of: ${READING_NAMES.join(', ')})` };
    if (typeof v !== 'string' || !isReadingValue(name, v)) return { ok: false, path: `${path}.${name}`, message: `takes ${readingValues(name).join(', ')}` };
    out[name] = v;
  }
  return { ok: true, value: out as ReadingChoice };
}

/** Documented rules the readings leave without documented evidence, with the reading that does it. */
export function blindedRules(readings: Readings): ReadonlyMap<RuleId, string> {
  const out = new Map<RuleId, string>();
  for (const n of READING_NAMES) {
    const spec: PointSpec = READING_POINTS[n];
    for (const id of spec.blinds?.[readings[n]] ?? []) out.set(id, `${n}=${readings[n]}`);
  }
  return out;
}

/** `name=value` for every point that differs from the default, or `the public API's` when none. */
export function describeReadings(readings: Readings): string {
  const changed = Object.entries(changedReadings(readings));
  return changed.length === 0 ? "the public API's" : changed.map(([n, v]) => `${n}=${String(v)}`).join(' ');
}
