/** A small hand-built RunReport: one passing scenario, one failing, one skipped, one failing property. */
import type { PropertyResult, RunReport, ScenarioResult } from '../../src/report/model.js';
import { excerpt } from '../../src/report/redact.js';
import { summariseRules, summariseRun, type CatalogueEntry } from '../../src/report/summarise.js';
import { toExchange } from '../../src/port.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.bearer-secret-7f3a';
const PASSWORD = 'hunter2-Pa55word!';
const CLIENT_SECRET = 's3cr3t-client-value';
const COOKIE = 'session=cookie-secret-991';
/** Every string that must never appear in any output. */
export const SECRETS = [TOKEN, PASSWORD, CLIENT_SECRET, COOKIE] as const;

export const catalogue: CatalogueEntry[] = [
  { id: 'create.status.201', section: '§2.1', level: 'documented', statement: 'A create answers 201.' },
  {
    id: 'create.type.underscore-echo',
    section: '§2.3',
    level: 'documented',
    statement: 'The response echoes the type with underscores.',
    quote: 'The type is user_authentication_password_profile_info.',
  },
  { id: 'errors.format.json-api', section: 'docs/api-notes.md: Errors', level: 'assumed', statement: 'Errors are {"errors": [...]}.' },
  { id: 'pagination.limit.clamp', section: '§3.2', level: 'documented', statement: 'page[limit] above 100 is clamped to 100.' },
  { id: 'auth.token.required', section: '§1.2', level: 'documented', statement: 'Requests without a token get 401.' },
];

const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const opts = { secrets: [TOKEN, PASSWORD] };

const createAccount = excerpt(
  toExchange(
    { method: 'POST', url: '/v2/accounts', headers: auth, body: '{"data":{"type":"account","name":"acme"}}' },
    { status: 201, headers: {}, body: '{"data":{"type":"account","id":"acc-1","name":"acme"}}' },
  ),
  opts,
);

const tokenExchange = excerpt(
  toExchange(
    {
      method: 'POST',
      url: '/oauth/access_token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: COOKIE },
      body: `grant_type=client_credentials&client_id=abc&client_secret=${CLIENT_SECRET}`,
    },
    { status: 200, headers: {}, body: JSON.stringify({ access_token: TOKEN, token_type: 'Bearer', expires: 1700000000 }) },
  ),
  opts,
);

const profileExchange = excerpt(
  toExchange(
    {
      method: 'POST',
      url: '/v2/authentication-realms/r1/user-authentication-info/u1/user-authentication-password-profile-info',
      headers: auth,
      body: JSON.stringify({ data: { type: 'user_authentication_password_profile_info', username: 'jo', password: PASSWORD } }),
    },
    {
      status: 201,
      // Secrets in response headers too: a session cookie and a token header.
      headers: { 'content-type': 'application/json', 'set-cookie': COOKIE, 'x-auth-token': TOKEN },
      // A hostile target: markup in a field, and the password echoed inside free text.
      body: JSON.stringify({
        data: { type: 'user-authentication-password-profile-info', id: 'p1', note: '<script>alert("x")</script>' },
        meta: { hint: `password ${PASSWORD} accepted` },
      }),
    },
  ),
  { ...opts, evidence: true },
);

const limitExchange = excerpt(
  toExchange({ method: 'GET', url: '/v2/accounts?page[limit]=250', headers: { authorization: `Bearer ${TOKEN}` } }, { status: 200, headers: {}, body: '{"data":[],"meta":{"page":{"limit":250}}}' }),
  opts,
);

export const passing: ScenarioResult = {
  name: 'create account',
  file: 'scenarios/create.yaml',
  tags: ['create'],
  rules: ['create.status.201'],
  status: 'pass',
  steps: [
    {
      index: 0,
      role: 'probe',
      name: 'create',
      status: 'pass',
      verdicts: [{ ruleId: 'create.status.201', source: 'expectation', description: 'status is 201', outcome: { status: 'pass' } }],
      exchanges: [createAccount],
    },
  ],
};

export const failing: ScenarioResult = {
  name: 'password profile type echo',
  file: 'scenarios/create.yaml',
  tags: ['create', 'password'],
  rules: ['create.status.201', 'create.type.underscore-echo', 'errors.format.json-api'],
  status: 'fail',
  steps: [
    {
      index: 0,
      role: 'probe',
      name: 'get a token',
      status: 'pass',
      verdicts: [{ ruleId: 'auth.token.required', source: 'check', description: 'no token gives 401', outcome: { status: 'skip', reason: 'token endpoint not judged here' } }],
      exchanges: [tokenExchange],
    },
    {
      index: 1,
      role: 'probe',
      name: 'create password profile info',
      status: 'fail',
      verdicts: [
        { ruleId: 'create.status.201', source: 'expectation', description: 'status is 201', outcome: { status: 'pass' } },
        {
          ruleId: 'create.type.underscore-echo',
          source: 'expectation',
          description: '$.data.type equals "user_authentication_password_profile_info"',
          outcome: {
            status: 'fail',
            message: 'type is echoed with dashes',
            expected: 'user_authentication_password_profile_info',
            actual: 'user-authentication-password-profile-info',
          },
        },
        {
          ruleId: 'errors.format.json-api',
          source: 'check',
          description: 'error body has errors[]',
          // A check that (wrongly) puts a token member into `actual`: reporters still redact it.
          outcome: { status: 'fail', message: 'no errors member', expected: { errors: '[...]' }, actual: { access_token: TOKEN } },
        },
      ],
      exchanges: [profileExchange],
    },
  ],
};

export const skipped: ScenarioResult = {
  name: 'writes disabled',
  file: 'scenarios/writes.yaml',
  tags: ['writes'],
  rules: ['create.status.201'],
  status: 'skip',
  skipReason: 'needs --allow-writes',
  steps: [],
};

export const property: PropertyResult = {
  name: 'limit is clamped',
  rules: ['pagination.limit.clamp'],
  status: 'fail',
  numRuns: 17,
  seed: 42,
  path: '3:1',
  counterexample: '[{"limit":250}]',
  replay: 'commerce-sim props --target sim --seed 42 --path 3:1',
  verdicts: [
    {
      ruleId: 'pagination.limit.clamp',
      source: 'property',
      description: 'meta.page.limit <= 100',
      outcome: { status: 'fail', message: 'limit not clamped', expected: { max: 100 }, actual: 250 },
    },
  ],
  exchanges: [limitExchange],
};

export function makeReport(over: { strict?: boolean; runId?: string; durationMs?: number } = {}): RunReport {
  const strict = over.strict ?? false;
  const scenarios = [passing, failing, skipped];
  const properties = [property];
  const rules = summariseRules(catalogue, scenarios, properties);
  return {
    schemaVersion: 1,
    tool: { name: 'commerce-sim', version: '0.1.0' },
    target: { kind: 'sim', baseUrl: 'http://127.0.0.1:4747' },
    options: { strict, allowWrites: false, seed: 42 },
    summary: summariseRun(rules, scenarios, properties, strict),
    rules,
    scenarios,
    properties,
    timing: { runId: over.runId ?? 'run-20240101-0001', startedAt: '2024-01-01T00:00:00.000Z', durationMs: over.durationMs ?? 1234, requests: 4 },
  };
}
