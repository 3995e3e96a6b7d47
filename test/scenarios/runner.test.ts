import { describe, expect, it } from 'vitest';
import { fail } from '../../src/rules/rule.js';
import { parseScenarioText } from '../../src/scenarios/load.js';
import { runScenarios, SKIP_SIM_ONLY, SKIP_WRITES } from '../../src/scenarios/runner.js';
import { TargetError } from '../../src/port.js';
import { fakeTarget, json, listHandler, rulesOf, spyRule } from './fake.js';

const created = spyRule('create.status.201');
const fields = spyRule('create.response.fields', (ctx) =>
  ctx.exchanges.every((e) => e.response.status === 201)
    ? { status: 'pass' }
    : fail(
        'not created',
        201,
        ctx.exchanges.map((e) => e.response.status),
      ),
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
      rule: create.response.fields
      status: 201
      json:
        - { path: $.data.username, equals: alice }
        - { path: $.data.id, matches: "^id-" }
    rules: [create.response.fields]
    capture: { last_id: $.data.id, count: $.meta.count }
  - name: read
    request: { method: GET, path: "/v2/realms/\${{ vars.realm_id }}/profiles/\${{ captures.last_id }}" }
    expect:
      rule: create.status.201
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

  it('makes a failed expectation on a request outside the documented surface inconclusive, with the request it rests on', async () => {
    const [result] = await runScenarios(load(CREATE_THEN_READ), { target: profiles, ruleById: rules.ruleById });
    const read = result?.steps[1];
    expect(read?.status).toBe('inconclusive');
    const own = read?.verdicts.filter((v) => v.ruleId === 'create.status.201' && v.outcome.status !== 'pass') ?? [];
    expect(own.map((v) => v.outcome)).toEqual([{ status: 'inconclusive', reason: expect.stringContaining('outside the documented surface'), dependsOn: ['GET /v2/realms/r1/profiles/id-42'] }]);
    expect(read?.exchanges[0]).toMatchObject({ url: '/v2/realms/r1/profiles/id-42', evidence: true });
    expect(read?.verdicts.filter((v) => v.observedFor !== undefined)).toEqual([]);
    expect(result?.status).toBe('inconclusive');
  });

  it('lets a failed expectation on a documented request stand, attributed to the rule it names', async () => {
    const scenario = load(
      `name: list\nrules: [create.status.201]\nsteps:\n  - name: accounts\n    request: { method: GET, path: /v2/accounts }\n    expect: { status: 200, rule: create.status.201 }\n`,
    );
    const target = fakeTarget({ handlers: [() => json(500, { errors: [] }, { 'x-trace': 't1' })] });
    const [result] = await runScenarios(scenario, { target, ruleById: rules.ruleById });
    expect(result?.status).toBe('fail');
    expect(result?.steps[0]?.verdicts).toEqual([
      { ruleId: 'create.status.201', source: 'expectation', description: 'status is 200', outcome: { status: 'fail', message: 'expected 200, got 500', expected: 200, actual: 500 } },
    ]);
    expect(result?.steps[0]?.exchanges[0]).toMatchObject({ evidence: true, responseHeaders: { 'content-type': 'application/json', 'x-trace': 't1' } });
  });

  it('redacts passwords from excerpts and keeps only the first exchange of a passing step', async () => {
    const [result] = await runScenarios(load(CREATE_THEN_READ), { target: profiles, ruleById: rules.ruleById });
    expect(result?.steps[0]?.exchanges).toHaveLength(1);
    expect(result?.steps[0]?.exchanges[0]?.requestBody).not.toContain('12345678');
  });

  it('makes a step whose request cannot be sent inconclusive, and the later probes too', async () => {
    const down = fakeTarget({ vars: { realm_id: 'r1' }, handlers: [] });
    const broken = { ...down, send: () => Promise.reject(new TargetError('TARGET_UNREACHABLE', 'cannot reach http://x: ECONNREFUSED')) };
    const [result] = await runScenarios(load(CREATE_THEN_READ), { target: broken, ruleById: rules.ruleById });
    expect(result?.status).toBe('inconclusive');
    expect(result?.steps.map((s) => s.status)).toEqual(['inconclusive', 'inconclusive']);
    expect(result?.steps[0]?.verdicts[0]?.outcome).toMatchObject({ status: 'inconclusive', reason: expect.stringContaining('ECONNREFUSED (TARGET_UNREACHABLE)') });
    expect(result?.steps[1]?.skipReason).toContain('not run: an earlier request could not be sent');
  });

  it('skips for writes, sim-only and missing variables, with skip verdicts for the rules', async () => {
    const base = (tags: string) =>
      `name: s ${tags}\nrules: [auth.required]\ntags: [${tags}]\nsteps:\n  - name: one\n    rules: [auth.required]\n    request: { method: GET, path: "/v2/\${{ vars.realm_id }}" }\n`;
    const scenarios = load(`${base('writes')}---\n${base('sim-only')}---\n${base('reads')}`);
    const http = fakeTarget({ kind: 'http', handlers: [() => json(200, {})] });
    const results = await runScenarios(scenarios, { target: http, ruleById: rules.ruleById });
    expect(results.map((r) => [r.status, r.skipReason])).toEqual([
      ['skip', SKIP_WRITES],
      ['skip', SKIP_SIM_ONLY],
      ['skip', "needs variable 'realm_id' (give it with --var realm_id=...)"],
    ]);
    expect(http.requests).toHaveLength(0);
    expect(results[0]?.steps[0]?.verdicts).toEqual([{ ruleId: 'auth.required', source: 'check', description: 'one', outcome: { status: 'skip', reason: SKIP_WRITES } }]);
    const allowed = await runScenarios(scenarios, { target: http, ruleById: rules.ruleById, allowWrites: true, vars: { realm_id: 'r' } });
    expect(allowed.map((r) => r.status)).toEqual(['pass', 'skip', 'pass']);
    expect(http.requests).toHaveLength(2);
  });

  it('marks only the steps that need a capture that was never taken, and keeps the verdicts already given', async () => {
    const text = CREATE_THEN_READ.replace('last_id: $.data.id', 'last_id: $.data.nope');
    const [result] = await runScenarios(load(text), { target: profiles, ruleById: rules.ruleById });
    expect(result?.steps[0]?.status).toBe('pass');
    expect(result?.steps[0]?.verdicts.some((v) => v.outcome.status === 'fail')).toBe(false);
    expect(result?.steps[1]).toMatchObject({ status: 'inconclusive', skipReason: "needs capture 'last_id', which no earlier step captured" });
    expect(result?.status).toBe('inconclusive');
  });

  it('judges a sequence as one set of exchanges and returns results in file order whatever the concurrency', async () => {
    const seq = (n: number) =>
      `name: seq ${n}\nrules: [create.status.201]\nsteps:\n  - name: pair\n    sequence:\n      - request: { method: GET, path: /a }\n        expect: { status: 200, rule: create.status.201 }\n        capture: { v: $.v }\n      - request: { method: GET, path: "/b/\${{ captures.v }}" }\n    rules: [create.status.201]\n`;
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

describe('step roles', () => {
  const limitDefault = spyRule('pagination.limit.default', () => fail('limit', 25, 7));
  const roleRules = rulesOf(limitDefault, spyRule('create.status.201'));
  const loadRoles = (text: string) => {
    const { scenarios, problems } = parseScenarioText(text, 'roles.yaml', roleRules);
    expect(problems).toEqual([]);
    return scenarios;
  };
  const SETUP_PROBE_CLEANUP = `name: settings
rules: [create.status.201]
steps:
  - name: change a setting
    role: setup
    request: { method: PUT, path: /v2/settings, body: { data: { page_length: 7 } } }
    expect: { status: 200 }
  - name: read
    rules: [create.status.201]
    request: { method: GET, path: /v2/accounts }
  - name: put it back
    role: cleanup
    restores: settings
    request: { method: PUT, path: /v2/settings, body: { data: { page_length: 25 } } }
    expect: { status: 200 }
`.replace('name: settings\nrules', 'name: settings\ntags: [writes]\nrules');

  it('makes the probes after a failed setup inconclusive, says why, and still runs the cleanup', async () => {
    const target = fakeTarget({ handlers: [] }); // 404 for everything
    const [result] = await runScenarios(loadRoles(SETUP_PROBE_CLEANUP), { target, ruleById: roleRules.ruleById });
    expect(result?.steps.map((s) => [s.role, s.status])).toEqual([
      ['setup', 'inconclusive'],
      ['probe', 'inconclusive'],
      ['cleanup', 'inconclusive'],
    ]);
    expect(result?.steps[1]?.skipReason).toBe('setup `PUT /v2/settings` answered 404 (status is 200)');
    expect(target.requests.map((r) => r.method)).toEqual(['PUT', 'PUT']);
    expect(result?.steps[0]?.verdicts).toEqual([]);
    expect(result?.status).toBe('inconclusive');
  });

  it('keeps state it could not restore dirty for the rest of the run: rules reading it are inconclusive', async () => {
    let puts = 0;
    const target = fakeTarget({
      handlers: [(req) => (req.method === 'PUT' ? json((puts += 1) === 1 ? 200 : 500, {}) : undefined), listHandler([{ id: 'a', created_at: '2026-01-01T00:00:00.000Z' }])],
    });
    const later = `name: later\nrules: [pagination.limit.default]\nsteps:\n  - name: default page\n    rules: [pagination.limit.default]\n    request: { method: GET, path: /v2/accounts }\n`;
    const results = await runScenarios([...loadRoles(SETUP_PROBE_CLEANUP), ...loadRoles(later)], { target, ruleById: roleRules.ruleById, concurrency: 1 });
    expect(results[0]?.steps[2]).toMatchObject({ role: 'cleanup', status: 'inconclusive' });
    expect(results[1]?.steps[0]?.verdicts[0]?.outcome).toMatchObject({ status: 'inconclusive', reason: expect.stringContaining('settings may not be restored') });
    expect(results[1]?.status).toBe('inconclusive');
  });

  it('skips only the step that needs a missing variable', async () => {
    const text = `name: v\nrules: [create.status.201]\nsteps:\n  - name: needs a var\n    rules: [create.status.201]\n    request: { method: GET, path: "/v2/accounts/\${{ vars.nope }}" }\n  - name: needs none\n    rules: [create.status.201]\n    request: { method: GET, path: /v2/accounts }\n`;
    const target = fakeTarget({ handlers: [listHandler([])] });
    const [result] = await runScenarios(loadRoles(text), { target, ruleById: roleRules.ruleById });
    expect(result?.steps.map((s) => s.status)).toEqual(['skip', 'pass']);
    expect(result?.status).toBe('pass');
  });

  it('lets a documented failure stand when an undocumented write it rests on was a verified setup', async () => {
    const broken = spyRule('create.status.201', (ctx) => (ctx.exchanges.some((e) => e.request.method === 'GET') ? fail('broken', 1, 2) : { status: 'pass' }));
    const r = rulesOf(broken);
    const text = `name: w\ntags: [writes]\nrules: [create.status.201]\nsteps:\n  - name: write then read\n    rules: [create.status.201]\n    sequence:\n      - role: setup\n        request: { method: DELETE, path: /v2/accounts/a }\n        expect: { status: 204 }\n      - request: { method: GET, path: /v2/accounts }\n`;
    const target = fakeTarget({ handlers: [(req) => (req.method === 'DELETE' ? json(204, {}) : undefined), listHandler([])] });
    const { scenarios } = parseScenarioText(text, 'w.yaml', r);
    const [result] = await runScenarios(scenarios, { target, ruleById: r.ruleById });
    expect(result?.steps[0]?.verdicts.map((v) => v.outcome.status)).toEqual(['fail']);
    const refused = fakeTarget({ handlers: [listHandler([])] });
    const [again] = await runScenarios(scenarios, { target: refused, ruleById: r.ruleById });
    expect(again?.steps[0]).toMatchObject({ status: 'inconclusive', skipReason: expect.stringContaining('setup `DELETE /v2/accounts/a` answered 404') });
  });
});
