/**
 * The documented cases a fixture is generated for, in the order they are written. Each names the rules
 * (docs/rule-ids.md) its response shows. File names are part of the contract: teams load them by path.
 */

/** A request of a case, before the generator adds the bearer token. */
export interface CaseRequest {
  readonly method: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** `token`: sent with the project's bearer token; `none`: without an Authorization header. */
  readonly auth: 'token' | 'none';
}

/** Ids the seeded simulator knows; cases build their paths from them. */
export interface CaseIds {
  readonly realm_id: string;
  readonly user_authentication_info_id: string;
  readonly password_profile_id: string;
}

/** Simulator options that differ from the default (seed 42, 120 accounts, distinct timestamps). */
interface CaseSim {
  readonly accounts?: number;
  readonly dataset?: 'shared-timestamps';
}

interface CaseBase {
  readonly name: string;
  readonly rules: readonly string[];
  readonly description: string;
  readonly sim?: CaseSim;
  /** Sent first, not saved (e.g. the settings change a list case depends on). */
  readonly setup?: readonly CaseRequest[];
}

/** One request, one fixture (`<name>.json`). */
export interface SingleCase extends CaseBase {
  readonly kind: 'single';
  readonly request: (ids: CaseIds) => CaseRequest;
}

/** §4.3 keyset reading: `<name>/page-1.json`, `page-2.json`, ... until a page returns zero records. */
export interface KeysetCase extends CaseBase {
  readonly kind: 'keyset';
  readonly path: string;
  readonly limit: number;
  /** Stops a target that never answers an empty page. */
  readonly maxPages: number;
}

export type FixtureCase = SingleCase | KeysetCase;

/** Literal secrets the cases send; the generator replaces them and proves none is left. */
export const CASE_PASSWORD = 'correct-horse-battery';
export const CASE_SHORT_PASSWORD = 'short-7';
export const CASE_CLIENT_SECRET = 'fixture-client-secret';
const UNKNOWN_REALM_ID = '00000000-0000-4000-8000-000000000000';

const PROFILE_TYPE = 'user_authentication_password_profile_info';
const JSON_TYPE = { 'content-type': 'application/json' } as const;

const createPath = (ids: CaseIds, realm = ids.realm_id): string =>
  `/v2/authentication-realms/${realm}/user-authentication-info/${ids.user_authentication_info_id}/user-authentication-password-profile-info`;

const data = (ids: CaseIds, fields: Readonly<Record<string, unknown>>): string =>
  JSON.stringify({ data: { type: PROFILE_TYPE, username: 'ada.lovelace', password: CASE_PASSWORD, password_profile_id: ids.password_profile_id, ...fields } });

const create =
  (body: (ids: CaseIds) => string, auth: CaseRequest['auth'] = 'token', realm?: string) =>
  (ids: CaseIds): CaseRequest => ({
    method: 'POST',
    url: createPath(ids, realm),
    headers: JSON_TYPE,
    body: body(ids),
    auth,
  });

const get = (url: string) => (): CaseRequest => ({ method: 'GET', url, auth: 'token' });

const CREATE_ERROR = ['create.errors.validation-400', 'errors.format'] as const;
const PAGE_SHAPE = ['pagination.meta.present', 'pagination.page.total', 'pagination.page.current', 'pagination.links.present', 'pagination.links.consistent'] as const;

export const FIXTURE_CASES: readonly FixtureCase[] = [
  {
    kind: 'single',
    name: 'create/created',
    rules: ['create.status.201', 'create.response.fields', 'create.type.underscore-echo', 'create.timestamps.format', 'create.timestamps.equal', 'create.password.not-returned', 'create.links.self'],
    description: 'A valid create: 201, the record without its password, links.self without /v2.',
    request: create((ids) => data(ids, {})),
  },
  {
    kind: 'single',
    name: 'create/error-short-password',
    rules: ['create.password.min-length', ...CREATE_ERROR],
    description: `A password of ${CASE_SHORT_PASSWORD.length} characters (the minimum is 8): 400.`,
    request: create((ids) => data(ids, { password: CASE_SHORT_PASSWORD })),
  },
  {
    kind: 'single',
    name: 'create/error-missing-username',
    rules: ['create.required-fields', ...CREATE_ERROR],
    description: 'No username: 400.',
    request: create((ids) => data(ids, { username: undefined })),
  },
  {
    kind: 'single',
    name: 'create/error-wrong-type',
    rules: [...CREATE_ERROR],
    description: "A type other than the record's: 400.",
    request: create((ids) => data(ids, { type: 'account' })),
  },
  {
    kind: 'single',
    name: 'create/error-no-data',
    rules: [...CREATE_ERROR],
    description: "The fields at the top level instead of inside 'data': 400.",
    request: create((ids) => JSON.stringify({ type: PROFILE_TYPE, username: 'ada.lovelace', password: CASE_PASSWORD, password_profile_id: ids.password_profile_id })),
  },
  {
    kind: 'single',
    name: 'create/error-malformed-json',
    rules: ['create.errors.malformed-json-400', 'errors.format'],
    description: 'A body that is not JSON (cut short): 400.',
    request: create(() => `{"data": {"type": "${PROFILE_TYPE}", "username": "ada.lovelace",`),
  },
  {
    kind: 'single',
    name: 'create/error-unknown-realm',
    rules: ['create.errors.unknown-parent-404', 'errors.format'],
    description: 'A realm id that does not exist: 404 Resource not found.',
    request: create((ids) => data(ids, {}), 'token', UNKNOWN_REALM_ID),
  },
  {
    kind: 'single',
    name: 'create/error-no-token',
    rules: ['auth.required', 'auth.missing-401', 'errors.format'],
    description: 'No Authorization header: 401 Unauthorized, nothing created.',
    request: create((ids) => data(ids, {}), 'none'),
  },
  {
    kind: 'single',
    name: 'lists/empty',
    rules: ['pagination.meta.present-when-empty', 'filter.results-total', 'pagination.page.total', 'pagination.links.present'],
    description: 'A filter that matches nothing: data [], pagination meta still present, page.total 0.',
    request: get('/v2/accounts?filter=eq(registration_id,REG-99999999)'),
  },
  {
    kind: 'single',
    name: 'lists/default-page',
    rules: ['pagination.limit.default', ...PAGE_SHAPE],
    description: 'The first page without page parameters: 25 records of 120.',
    request: get('/v2/accounts'),
  },
  {
    kind: 'single',
    name: 'lists/page-length-changed',
    rules: ['pagination.limit.project-setting', 'settings.page-length', ...PAGE_SHAPE],
    description: 'After PUT /v2/settings page_length 10: pages of 10 without page[limit].',
    setup: [{ method: 'PUT', url: '/v2/settings', headers: JSON_TYPE, body: JSON.stringify({ data: { type: 'settings', page_length: 10 } }), auth: 'token' }],
    request: get('/v2/accounts'),
  },
  {
    kind: 'single',
    name: 'lists/clamped',
    rules: ['pagination.limit.clamp', 'pagination.limit.max', ...PAGE_SHAPE],
    description: 'page[limit]=500 is clamped: 100 records, meta.page.limit 100.',
    request: get('/v2/accounts?page[limit]=500'),
  },
  {
    kind: 'single',
    name: 'lists/last-page',
    rules: ['pagination.offset.records', 'pagination.offset.echo', 'pagination.results.total', ...PAGE_SHAPE],
    description: 'page[offset]=100 of 120 records: the last 20, next null.',
    request: get('/v2/accounts?page[offset]=100'),
  },
  {
    kind: 'single',
    name: 'lists/shared-timestamp-page',
    rules: ['large-data.shared-timestamp', 'large-data.keyset.timestamp', 'filter.ge', 'sort.ascending'],
    description: 'Records created in bursts of 150 sharing one created_at: the first and last timestamps of the page are equal, so page further.',
    sim: { dataset: 'shared-timestamps' },
    request: get('/v2/accounts?sort=created_at&filter=ge(created_at,2024-01-01T00:00:00.000Z)&page[limit]=25'),
  },
  {
    kind: 'single',
    name: 'lists/offset-limit-hard',
    rules: ['pagination.offset-limit.hard', 'pagination.offset-limit.hard-400', 'errors.format'],
    description: '/v2/orders past offset 10,000 (hard limit): 400 pointing at sort and filter.',
    request: get('/v2/orders?page[offset]=10001'),
  },
  {
    kind: 'single',
    name: 'lists/offset-limit-soft',
    rules: ['pagination.offset-limit.soft-400', 'errors.format'],
    description: "/v2/accounts past the project's page_offset_limit of 10,000 (soft limit): 400.",
    request: get('/v2/accounts?page[offset]=10001'),
  },
  {
    kind: 'keyset',
    name: 'lists/keyset',
    rules: ['large-data.keyset.id', 'sort.ascending', 'filter.gt'],
    description: 'sort=id with filter=gt(id,<last id>) over 60 accounts, 25 a page, until the empty page.',
    sim: { accounts: 60 },
    path: '/v2/accounts',
    limit: 25,
    maxPages: 20,
  },
  {
    kind: 'single',
    name: 'auth/token',
    rules: ['auth.token.response'],
    description: 'POST /oauth/access_token with client credentials: the token object, not wrapped in data.',
    request: () => ({
      method: 'POST',
      url: '/oauth/access_token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&client_id=commerce-sim&client_secret=${CASE_CLIENT_SECRET}`,
      auth: 'none',
    }),
  },
];
