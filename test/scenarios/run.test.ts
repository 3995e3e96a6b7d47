import { describe, expect, it } from 'vitest';
import { fail } from '../../src/rules/types.js';
import { parseScenarioText } from '../../src/scenarios/load.js';
import { runScenarios, SKIP_SIM_ONLY, SKIP_WRITES } from '../../src/scenarios/run.js';
import { TargetError } from '../../src/target/types.js';
import { fakeTarget, json, rulesOf, spyRule } from './fake.js';

const created = spyRule('create.status.201');
const fields = spyRule('create.response.fields', (ctx) =>
  ctx.exchanges.every((e) => e.response.status === 201) ? { status: 'pass' } : fail('not created', 201, ctx.exchanges.map((e) => e.response.status)),
);
const rules = rulesOf(created, fields, spyRule('auth.required'));

function load(text: string) {
  const { scenarios, problems } = parseScenarioText(text, 'test.yaml', rules);
  expect(problems).toEqual([]);
  return scenarios;
}

const CREATE_THEN_READ = `name: create then read
rules: [create.status.201]
tags: [writes]
steps:
  - name: create
    request:
      method: POST
      path: /v2/realms/\${{ vars.realm_id }}/profiles
      body: { data: { username: alice, password: "12345678" } }
    expect:
      status: 201
      json:
        - { path: $.data.username, equals: alice }
        - { path: $.data.id, matches: "^id-" }
    rules: [create.response.fields]
    capture: { last_id: $.data.id, count: $.meta.count }
  - name: read
    request: { method: GET, path: "/v2/realms/\${{ vars.realm_id }}/profiles/\${{ captures.last_id }}" }
    expect:
      status: 200
      json: [{ path: $.data.id, equals: "\${{ captures.last_id }}" }, { path: $.data.username, equals: bob }]
`;

const profiles = fakeTarget({
  vars: { realm_id: 'r1' },
  handlers: [
    (req, url) => (req.method === 'POST' && url.pathname === '/v2/realms/r1/profiles' ? json(201, { data: { id: 'id-42', username: 'alice' }, meta: { count: 3 } }) : undefined),
    (req, url) => (req.method === 'GET' && url.pathname === '/v2/realms/r1/profiles/id-42' ? json(200, { data: { id: 'id-42', username: 'alice' } }) : undefined),
  ],
});

describe('runScenarios', () => {
  it('flows captures into later steps and gives checks the step exchanges and vars', async () => {
    const [result] = await runScenarios(load(CREATE_THEN_READ), { target: profiles, ruleById: rules.ruleById });
    expect(profiles.requests.map((r) => r.url)).toEqual(['/v2/realms/r1/profiles', '/v2/realms/r1/profiles/id-42']);
    expect(profiles.requests[0]?.body).toBe('{"data":{"username":"alice","password":"12345678"}}');
    const ctx = fields.seen.at(-1);
    expect(ctx?.exchanges).toHaveLength(1);
    expect(ctx?.vars).toMatchObject({ realm_id: 'r1', last_id: 'id-42', count: 3, base_url: 'http://fake.test' });
    expect(result?.steps[0]?.status).toBe('pass');
    expect(result?.steps[0]?.verdicts.map((v) => [v.ruleId, v.source, v.outcome.status])).toEqual([
      ['create.response.fields', 'expectation', 'pass'],
      ['create.response.fields', 'expectation', 'pass'],
      ['create.response.fields', 'expectation', 'pass'],
      ['create.response.fields', 'check', 'pass'],
    ]);
  });

  it('attributes a failed expectation to the step rule, else the scenario rule, with expected and actual', async () => {
    const [result] = await runScenarios(load(CREATE_THEN_READ), { target: profiles, ruleById: rules.ruleById });
    expect(result?.status).toBe('fail');
    const read = result?.steps[1];
    expect(read?.status).toBe('fail');
    const failed = read?.verdicts.filter((v) => v.outcome.status === 'fail') ?? [];
    expect(failed).toEqual([
      {
        ruleId: 'create.status.201',
        source: 'expectation',
        description: '$.data.username equals "bob"',
        outcome: { status: 'fail', message: '$.data.username differs', expected: 'bob', actual: 'alice' },
      },
    ]);
    expect(read?.exchanges[0]?.url).toBe('/v2/realms/r1/profiles/id-42');
  });

  it('redacts passwords from excerpts and keeps only the first exchange of a passing step', async () => {
    const [result] = await runScenarios(load(CREATE_THEN_READ), { target: profiles, ruleById: rules.ruleById });
    expect(result?.steps[0]?.exchanges).toHaveLength(1);
    expect(result?.steps[0]?.exchanges[0]?.requestBody).not.toContain('12345678');
  });

  it('marks a scenario failed and stops it when a request cannot be sent', async () => {
    const down = fakeTarget({ vars: { realm_id: 'r1' }, handlers: [] });
    const broken = { ...down, send: () => Promise.reject(new TargetError('TARGET_UNREACHABLE', 'cannot reach http://x: ECONNREFUSED')) };
    const [result] = await runScenarios(load(CREATE_THEN_READ), { target: broken, ruleById: rules.ruleById });
    expect(result?.status).toBe('fail');
    expect(result?.steps.map((s) => s.status)).toEqual(['fail', 'skip']);
    expect(result?.steps[0]?.verdicts[0]?.outcome).toMatchObject({ status: 'fail', message: expect.stringContaining('ECONNREFUSED (TARGET_UNREACHABLE)') });
    expect(result?.steps[1]?.skipReason).toBe('not run: an earlier step could not be sent');
  });

  it('skips for writes, sim-only and missing variables, with skip verdicts for the rules', async () => {
    const base = (tags: string) => `name: s ${tags}\nrules: [auth.required]\ntags: [${tags}]\nsteps:\n  - name: one\n    request: { method: GET, path: "/v2/\${{ vars.realm_id }}" }\n`;
    const scenarios = load(`${base('writes')}---\n${base('sim-only')}---\n${base('reads')}`);
    const http = fakeTarget({ kind: 'http', handlers: [() => json(200, {})] });
    const results = await runScenarios(scenarios, { target: http, ruleById: rules.ruleById });
    expect(results.map((r) => [r.status, r.skipReason])).toEqual([
      ['skip', SKIP_WRITES],
      ['skip', SKIP_SIM_ONLY],
      ['skip', "needs variable 'realm_id' (give it with --var realm_id=...)"],
    ]);
    expect(results[0]?.steps[0]?.verdicts).toEqual([{ ruleId: 'auth.required', source: 'check', description: 'one', outcome: { status: 'skip', reason: SKIP_WRITES } }]);
    const allowed = await runScenarios(scenarios, { target: http, ruleById: rules.ruleById, allowWrites: true, vars: { realm_id: 'r' } });
    expect(allowed.map((r) => r.status)).toEqual(['pass', 'skip', 'pass']);
    expect(http.requests).toHaveLength(2);
  });

  it('skips a step whose capture was never taken, and fails the capture', async () => {
    const text = CREATE_THEN_READ.replace('last_id: $.data.id', 'last_id: $.data.nope');
    const [result] = await runScenarios(load(text), { target: profiles, ruleById: rules.ruleById });
    expect(result?.steps[0]?.verdicts.find((v) => v.description === 'capture last_id from $.data.nope')?.outcome.status).toBe('fail');
    expect(result?.steps[1]).toMatchObject({ status: 'skip', skipReason: "needs capture 'last_id' (no earlier step captured it)" });
  });

  it('judges a sequence as one set of exchanges and returns results in file order whatever the concurrency', async () => {
    const seq = (n: number) =>
      `name: seq ${n}\nrules: [create.status.201]\nsteps:\n  - name: pair\n    sequence:\n      - request: { method: GET, path: /a }\n        expect: { status: 200 }\n        capture: { v: $.v }\n      - request: { method: GET, path: "/b/\${{ captures.v }}" }\n    rules: [create.status.201]\n`;
    const scenarios = load(Array.from({ length: 6 }, (_, i) => seq(i)).join('---\n'));
    let calls = 0;
    const slow = fakeTarget({
      kind: 'http',
      handlers: [(req) => (req.url === '/a' ? json(200, { v: (calls += 1) }) : json(200, { ok: true }))],
    });
    const progress: string[] = [];
    const results = await runScenarios(scenarios, { target: slow, ruleById: rules.ruleById, concurrency: 3, onProgress: (e) => progress.push(e.kind) });
    expect(results.map((r) => r.name)).toEqual(scenarios.map((s) => s.name));
    expect(created.seen.at(-1)?.exchanges.map((e) => e.request.url)).toEqual(['/a', expect.stringMatching(/^\/b\/\d$/)]);
    expect(progress.filter((p) => p === 'done')).toHaveLength(6);
  });

  it('skips scenarios not yet started once the signal aborts', async () => {
    const controller = new AbortController();
    controller.abort(new Error('target unreachable'));
    const [result] = await runScenarios(load(CREATE_THEN_READ), { target: profiles, ruleById: rules.ruleById, signal: controller.signal });
    expect(result).toMatchObject({ status: 'skip', skipReason: 'not run: target unreachable' });
  });
});
