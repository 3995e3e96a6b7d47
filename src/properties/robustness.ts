/**
 * Robustness (docs/api-notes.md "Errors"): arbitrary methods, paths, query strings, headers and bodies
 * never get a 5xx or an error that is not the JSON error array, and the target keeps answering a
 * plain list read afterwards. Against a live target without --allow-writes only GET, HEAD and
 * OPTIONS are sent; over HTTP only what a conforming HTTP stack can carry (known methods, encoded
 * paths, printable headers).
 */
import * as fc from 'fast-check';
import { isAsideStatus, varString } from '../rules/inspect.js';
import type { TargetRequest } from '../port.js';
import { encodeValue } from './arbitraries.js';
import { defineProperty } from './define.js';
import type { PropertyEnv } from './env.js';

const ROBUSTNESS = 'robustness';
/** The simulator's body limit (1 MiB): one byte more must answer 413, not crash. */
const BODY_LIMIT = 1024 * 1024;
let oversized: string | undefined;
const oversizedBody = (): string => (oversized ??= `{"data":"${'x'.repeat(BODY_LIMIT)}"}`);

export interface RobustInput {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly auth: 'default' | 'none' | 'junk';
}

const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'];
const HTTP_METHODS = [...READ_METHODS, 'POST', 'PUT', 'PATCH', 'DELETE', 'PURGE', 'PROPFIND', 'REPORT', 'SEARCH'];
/** In process there is no HTTP parser in the way: any token reaches the router. */
const ANY_METHODS = [...HTTP_METHODS, 'TRACE', 'get', 'Post', 'FOO', 'M-SEARCH', 'BREW', ''];

const printable = fc.string({ unit: fc.constantFrom(...' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~'), maxLength: 40 });

function segments(env: PropertyEnv): fc.Arbitrary<string> {
  const known = [
    'v2',
    'accounts',
    'orders',
    'files',
    'settings',
    'inventories',
    'authentication-realms',
    'user-authentication-info',
    'user-authentication-password-profile-info',
    'oauth',
    'access_token',
    'pcm',
    'catalog',
    'catalogs',
    '__sim',
    'state',
    'seed',
  ];
  const ids = ['realm_id', 'user_authentication_info_id', 'password_profile_id'].map((n) => varString(env.vars, n)).filter((v): v is string => v !== undefined);
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...known, ...ids) },
    { weight: 2, arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constantFrom('', '.', '..', '%2F', '%00', '%zz', '%', 'a%20b', '%E0%A4%A', '~', '%2e%2e') },
  );
}

const pathArb = (env: PropertyEnv): fc.Arbitrary<string> =>
  fc.oneof(
    fc.array(segments(env), { maxLength: 7 }).map((s) => `/${s.join('/')}`),
    fc.array(segments(env), { maxLength: 6 }).map((s) => `/v2/${s.join('/')}`),
    fc.constantFrom('/', '//', '/v2', '/v2/', '/v2/accounts', '/v2/accounts/', '/v2/settings', '/oauth/access_token', '/__sim/state'),
  );

const queryArb: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom('page[limit]', 'page[offset]', 'page%5Blimit%5D', 'sort', 'filter', 'include', 'client_id', 'page', 'page[]', '[', 'a'),
          fc.string({ maxLength: 8 }).map(encodeURIComponent),
        ),
        fc.oneof(fc.constantFrom('', '1', '-1', '100', '1e9', 'id', '-id', 'eq(id,1)', 'gt(', 'in(id,a,b', '))', '%', '%zz', '%%'), fc.string({ maxLength: 20 }).map(encodeValue)),
      ),
      { minLength: 1, maxLength: 5 },
    )
    .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  fc.constantFrom('?', '?&&', '?=', '?a', '?%', '?page[limit]=1&page[limit]=2', '?filter=' + 'eq(id,1):'.repeat(20)),
);

const headersArb: fc.Arbitrary<Record<string, string>> = fc.dictionary(
  fc.oneof(
    fc.constantFrom('content-type', 'accept', 'x-moltin-currency', 'x-moltin-customer-token', 'if-none-match', 'x-request-id', 'accept-language', 'x-http-method-override'),
    fc.stringMatching(/^x-[a-z0-9-]{1,12}$/),
  ),
  fc.oneof(fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', '*/*', 'DELETE'), printable),
  { maxKeys: 4 },
);

function bodyArb(env: PropertyEnv): fc.Arbitrary<string | undefined> {
  const deep = fc.integer({ min: 1, max: 2000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`);
  const options = [
    fc.constant(undefined),
    fc.json({ maxDepth: 3 }),
    fc.string({ maxLength: 60 }),
    fc.record({ data: fc.dictionary(fc.constantFrom('type', 'username', 'password', 'page_length', 'name', 'id'), fc.jsonValue({ maxDepth: 2 })) }).map((v) => JSON.stringify(v)),
    deep,
  ];
  // An oversized body over a socket may reset the connection before the answer is read: in process only.
  return env.target.kind === 'sim' ? fc.oneof(...options, fc.constant('oversized')) : fc.oneof(...options);
}

function inputs(env: PropertyEnv): fc.Arbitrary<RobustInput> {
  const methods = !env.writable ? READ_METHODS : env.target.kind === 'sim' ? ANY_METHODS : HTTP_METHODS;
  return fc.record({
    method: fc.constantFrom(...methods),
    path: pathArb(env),
    query: queryArb,
    headers: headersArb,
    body: bodyArb(env),
    auth: fc.constantFrom('default', 'none', 'junk'),
  });
}

function requestOf(i: RobustInput, env: PropertyEnv): TargetRequest {
  const headers: Record<string, string> = { ...i.headers };
  if (i.auth === 'junk') headers['authorization'] = 'Bearer not-a-token';
  // Over HTTP a GET or HEAD with a body is not something every stack sends: bodies go with other methods.
  const bodyAllowed = env.target.kind === 'sim' || !['GET', 'HEAD'].includes(i.method);
  const body = i.body === 'oversized' ? oversizedBody() : i.body;
  return { method: i.method, url: `${i.path}${i.query}`, headers, ...(body !== undefined && bodyAllowed ? { body } : {}), ...(i.auth === 'none' ? { auth: 'none' as const } : {}) };
}

export const robustness = defineProperty<undefined, RobustInput>({
  name: ROBUSTNESS,
  summary: 'arbitrary methods, paths, queries, headers and bodies never get a 5xx or a non-JSON error, and the target keeps answering',
  rules: ['errors.no-5xx', 'errors.format'],
  isolated: true,
  needs: [],
  prepare: () => Promise.resolve(undefined),
  arbitrary: (_ctx, env) => inputs(env),
  show: (i) => ({ ...i, body: i.body === 'oversized' ? `<${BODY_LIMIT + 12} bytes>` : i.body?.slice(0, 500) }),
  async run(i, trial) {
    await trial.send(requestOf(i, trial.env));
    const after = await trial.send({ method: 'GET', url: '/v2/accounts?page[limit]=1' });
    const { status } = after.response;
    trial.expect(status === 200 || isAsideStatus(status), 'errors.no-5xx', `the target stopped answering: GET /v2/accounts?page[limit]=1 afterwards answered ${status}`, 200, status);
  },
});
