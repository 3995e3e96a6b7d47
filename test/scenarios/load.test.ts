import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadScenarios, parseScenarioText, ScenarioError } from '../../src/scenarios/load.js';

const known = new Set(['create.status.201', 'create.response.fields', 'pagination.offset.records', 'large-data.keyset.id']);
const options = { ruleExists: (id: string) => known.has(id) };

const GOOD = `name: create answers 201
rules: [create.status.201, create.response.fields]
tags: [writes]
steps:
  - name: create a profile
    request:
      method: POST
      path: /v2/authentication-realms/\${{ vars.realm_id }}/user-authentication-info
      query: { "page[limit]": 5 }
      headers: { Content-Type: application/json }
      body: { data: { type: x, password: "12345678" } }
    expect:
      rule: create.response.fields
      status: [200, 201]
      json:
        - { path: $.data.type, equals: x, exists: true }
      schema: password-profile-info
    rules: [create.response.fields]
    capture: { last_id: $.data.id }
  - name: read it back
    request: { method: GET, path: "/v2/x/\${{ captures.last_id }}", auth: none }
    expect: { status: 200, rule: create.status.201 }
  - name: walk
    walk: { path: /v2/accounts, mode: keyset-id, limit: 7 }
    rules: [large-data.keyset.id]
`;

function problemsOf(text: string) {
  return parseScenarioText(text, 'bad.yaml', options).problems.map((p) => `${p.file}:${p.line}: ${p.yamlPath}: ${p.message}`);
}

describe('parseScenarioText', () => {
  it('normalises a valid scenario into tagged unions', () => {
    const { scenarios, problems } = parseScenarioText(GOOD, 'good.yaml', options);
    expect(problems).toEqual([]);
    const [s] = scenarios;
    expect(s?.name).toBe('create answers 201');
    expect(s?.tags).toEqual(['writes']);
    const [create, read, walk] = s?.steps ?? [];
    expect(create?.kind).toBe('request');
    if (create?.kind !== 'request') throw new Error('unreachable');
    expect(create.line).toBe(5);
    expect(create.exchange.request.headers).toEqual({ 'content-type': 'application/json' });
    expect(create.exchange.request.query).toEqual([['page[limit]', 5]]);
    expect(create.exchange.expect.status).toEqual([200, 201]);
    expect(create.exchange.expect.rule).toBe('create.response.fields');
    expect(create.role).toBe('probe');
    expect(create.exchange.expect.json.map((j) => j.assertion.op)).toEqual(['equals', 'exists']);
    expect(create.exchange.capture).toEqual([{ name: 'last_id', path: '$.data.id' }]);
    if (read?.kind !== 'request') throw new Error('unreachable');
    expect(read.exchange.request.auth).toBe('none');
    expect(read.exchange.expect.rule).toBe('create.status.201');
    expect(walk).toMatchObject({ kind: 'walk', walk: { mode: 'keyset-id', limit: 7, maxPages: 1000 } });
  });

  it("requires a probe's expectation to name its rule, and keeps setup and cleanup free of verdicts", () => {
    const text = `name: n\nrules: [create.status.201]\nsteps:\n  - name: s\n    request: { method: GET, path: /v2/accounts }\n    expect: { status: 200 }\n`;
    expect(problemsOf(text)).toEqual(["bad.yaml:6: steps[0].expect: a probe's expectation names the rule it judges: add `rule: <id>` (or make the step a setup)"]);
    const roles = `name: n\nrules: [create.status.201]\nsteps:\n  - name: s\n    role: setup\n    rules: [create.status.201]\n    request: { method: GET, path: /v2/accounts }\n    expect: { status: 200, rule: create.status.201 }\n  - name: c\n    role: cleanup\n    restores: settings\n    request: { method: GET, path: /v2/accounts }\n  - name: p\n    restores: settings\n    request: { method: GET, path: /v2/accounts }\n`;
    expect(problemsOf(roles)).toEqual([
      'bad.yaml:6: steps[0].rules: a setup step gives no verdicts: move the rules to a probe step',
      'bad.yaml:8: steps[0].expect.rule: a setup expectation is a precondition, not a verdict: remove its rule',
      'bad.yaml:14: steps[2].restores: only a cleanup step restores state',
    ]);
    const ok = parseScenarioText(
      `name: n\nrules: [create.status.201]\nsteps:\n  - name: s\n    role: setup\n    request: { method: GET, path: /v2/accounts }\n    expect: { status: 200 }\n`,
      'ok.yaml',
      options,
    );
    const step = ok.scenarios[0]?.steps[0];
    expect(step?.role).toBe('setup');
    expect(step?.kind === 'request' ? step.exchange.expect.rule : 'x').toBeUndefined();
  });

  it('reports a bad method with file, line and YAML path', () => {
    const text = GOOD.replace('method: POST', 'method: FETCH');
    expect(problemsOf(text)).toEqual(['bad.yaml:7: steps[0].request.method: must be one of ["GET","HEAD","POST","PUT","PATCH","DELETE","OPTIONS"], got "FETCH"']);
  });

  it('points an unknown member at its own line and lists the allowed ones', () => {
    const text = GOOD.replace('    rules: [create.response.fields]\n', '    rules: [create.response.fields]\n    retry: 3\n');
    const [p] = problemsOf(text);
    expect(p).toMatch(/^bad\.yaml:19: steps\[0\]\.retry: unknown key 'retry' \(allowed: name, role, restores, rules, request/);
  });

  it('suggests the key a step key typo meant, and leaves out what the typo alone causes', () => {
    // Without its request the step would also have "exactly one of request, sequence, walk" and "'expect' needs 'request'".
    const text = GOOD.replace('  - name: read it back\n    request:', '  - name: read it back\n    requets:');
    expect(problemsOf(text)).toEqual(["bad.yaml:21: steps[1].requets: unknown key 'requets' (did you mean 'request'?)"]);
    const expect_ = GOOD.replace('    expect: { status: 200, rule: create.status.201 }', '    expcet: { status: 200, rule: create.status.201 }');
    expect(problemsOf(expect_)).toEqual(["bad.yaml:22: steps[1].expcet: unknown key 'expcet' (did you mean 'expect'?)"]);
  });

  it('suggests the key a top-level typo meant, and keeps the problems the typo does not explain', () => {
    expect(problemsOf(GOOD.replace('rules: [create.status.201, create.response.fields]', 'rulse: [create.status.201, create.response.fields]'))).toEqual([
      "bad.yaml:2: rulse: unknown key 'rulse' (did you mean 'rules'?)",
    ]);
    const twoProblems = GOOD.replace('name: create answers 201\n', '').replace('tags: [writes]', 'tasg: [writes]');
    expect(problemsOf(twoProblems)).toEqual(["bad.yaml:1: (document): missing member 'name'", "bad.yaml:2: tasg: unknown key 'tasg' (did you mean 'tags'?)"]);
  });

  it('says a step needs exactly one of request, sequence, walk', () => {
    const text = `name: n\nrules: [create.status.201]\nsteps:\n  - name: nothing to do\n`;
    expect(problemsOf(text)).toEqual(['bad.yaml:4: steps[0]: a step has exactly one of request, sequence, walk']);
  });

  it('reports a missing member, a bad status and an unknown rule id', () => {
    const text = `rules: [no.such-rule]\nsteps:\n  - name: s\n    request: { method: GET, path: /x }\n    expect: { status: 999 }\n`;
    expect(problemsOf(text)).toEqual(["bad.yaml:1: (document): missing member 'name'", 'bad.yaml:5: steps[0].expect.status: status is an HTTP status (100..599) or a list of them']);
    const unknownRule = `name: n\nrules: [create.status.201]\nsteps:\n  - name: s\n    rules: [no.such-rule]\n    request: { method: GET, path: /x }\n`;
    expect(problemsOf(unknownRule)).toEqual(["bad.yaml:5: steps[0].rules[0]: unknown rule id 'no.such-rule' (see `commerce-sim rules`)"]);
  });

  it('rejects unknown templates, captures read before they exist and bad regular expressions', () => {
    const text = [
      'name: n',
      'rules: [create.status.201]',
      'steps:',
      '  - name: s',
      '    request: { method: GET, path: "/x/${{ env.HOME }}/${{ captures.later }}" }',
      '    expect:',
      '      rule: create.status.201',
      '      json: [{ path: $.a, matches: "([a-z" }]',
      '    capture: { later: $.id }',
    ].join('\n');
    expect(problemsOf(text)).toEqual([
      "bad.yaml:5: steps[0].request.path: unknown template '${{ env.HOME }}': write ${{ vars.NAME }} or ${{ captures.NAME }}",
      'bad.yaml:5: steps[0].request.path: reads captures.later, which no earlier step captures',
      expect.stringMatching(/^bad\.yaml:8: steps\[0\]\.expect\.json\[0\]\.matches: not a regular expression/),
    ]);
  });

  it('requires the writes (or sim-only) tag on a scenario whose requests may change data', () => {
    const text = GOOD.replace('tags: [writes]\n', '');
    expect(problemsOf(text)).toEqual(["bad.yaml:6: steps[0].request.method: a POST request may change data: tag the scenario 'writes' (or 'sim-only')"]);
    const token = `name: t\nrules: [create.status.201]\nsteps:\n  - name: s\n    request: { method: POST, path: /oauth/access_token, raw: grant_type=implicit }\n`;
    expect(problemsOf(token)).toEqual([]);
  });

  it('reports YAML syntax errors with their line', () => {
    const [p] = problemsOf('name: n\nrules: [a.b\nsteps: {');
    expect(p).toMatch(/^bad\.yaml:\d+: \(yaml\): /);
  });

  it('reads several documents from one file', () => {
    const one = `name: a\nrules: [create.status.201]\nsteps:\n  - name: s\n    request: { method: GET, path: /x }\n`;
    const { scenarios } = parseScenarioText(`${one}---\n${one.replace('name: a', 'name: b')}`, 'f.yaml', options);
    expect(scenarios.map((s) => [s.name, s.line])).toEqual([
      ['a', 1],
      ['b', 7],
    ]);
  });
});

describe('loadScenarios', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scenarios-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const scenario = (name: string) => `name: ${name}\nrules: [create.status.201]\nsteps:\n  - name: s\n    request: { method: GET, path: /x }\n`;

  it('walks directories recursively in sorted order, labelling files relative to cwd', async () => {
    await mkdir(join(dir, 'b'), { recursive: true });
    await writeFile(join(dir, 'b', 'z.yaml'), scenario('bz'));
    await writeFile(join(dir, 'a.yml'), scenario('a'));
    await writeFile(join(dir, 'c.yaml'), scenario('c'));
    await writeFile(join(dir, 'notes.txt'), 'ignored');
    const loaded = await loadScenarios([dir], { ...options, cwd: dir });
    expect(loaded.map((s) => [s.file, s.name])).toEqual([
      ['a.yml', 'a'],
      ['b/z.yaml', 'bz'],
      ['c.yaml', 'c'],
    ]);
  });

  it('fails with SCENARIO_INVALID naming the file and line', async () => {
    await writeFile(join(dir, 'bad.yaml'), 'name: x\nrules: [create.status.201]\nsteps:\n  - name: s\n    request: { method: GET }\n');
    const error = await loadScenarios([dir], { ...options, cwd: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScenarioError);
    expect(error).toMatchObject({ code: 'SCENARIO_INVALID', message: "bad.yaml:5: steps[0].request: missing member 'path'" });
  });

  it('rejects duplicate scenario names and empty inputs', async () => {
    await writeFile(join(dir, 'a.yaml'), scenario('same'));
    await writeFile(join(dir, 'b.yaml'), scenario('same'));
    await expect(loadScenarios([dir], { ...options, cwd: dir })).rejects.toThrow("b.yaml:1: name: duplicate scenario name 'same' (also in a.yaml:1)");
    await expect(loadScenarios([join(dir, 'missing')], options)).rejects.toMatchObject({ code: 'SCENARIO_NOT_FOUND' });
  });
});
