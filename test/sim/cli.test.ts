/** The `rules`, `openapi` and `serve` commands, called in-process (no socket: `serve` itself is in test/e2e). */
import { describe, expect, it } from 'vitest';
import { openapi } from '../../src/cli/openapi.js';
import { rules } from '../../src/cli/rules.js';
import { formatServeInfo, parseServeArgs, type ServeInfo } from '../../src/cli/serve.js';
import { UsageError } from '../../src/cli/io.js';
import { DEVIATION_IDS } from '../../src/engine/deviations.js';
import { catalogue } from '../../src/rules/catalogue.js';
import { at, parseJson } from './helpers.js';
import { captureIo } from '../support/cli-io.js';

describe('commerce-sim rules', () => {
  it('prints an aligned table: a header, a rule line, one line per rule', async () => {
    const c = captureIo();
    expect(await rules([], c.io)).toBe(0);
    const lines = c.out().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id\s+\| level\s+\| section\s+\| statement$/);
    const documented = catalogue.filter((r) => r.level === 'documented');
    expect(lines).toHaveLength(catalogue.length + documented.length + 2);
    const bar = (line: string) => [...line.matchAll(/ \| /g)].map((m) => m.index);
    const header = bar(lines[0] ?? '');
    const quoted = (line: string) => line.startsWith('    “');
    for (const line of lines.slice(2).filter((l) => !quoted(l))) expect(bar(line).slice(0, 3)).toEqual(header);
    // Under each documented rule, the document's own sentence.
    for (const rule of documented) expect(lines[lines.findIndex((l) => l.startsWith(`${rule.id} `)) + 1]).toBe(`    “${rule.quote}”`);
    for (const rule of catalogue) expect(c.out()).toContain(rule.id);
  });

  it('--json prints the catalogue as one JSON array', async () => {
    const c = captureIo();
    expect(await rules(['--json'], c.io)).toBe(0);
    const parsed = parseJson(c.out());
    expect(Array.isArray(parsed)).toBe(true);
    expect(parsed).toEqual(catalogue.map(({ id, family, level, section, statement, quote }) => ({ id, family, level, section, statement, ...(quote === undefined ? {} : { quote }) })));
  });

  it('every deviation id is a documented rule of the catalogue', () => {
    for (const id of DEVIATION_IDS) expect(catalogue.find((r) => r.id === id)?.level, id).toBe('documented');
  });

  it('refuses unknown options', async () => {
    const c = captureIo();
    expect(await rules(['--yaml'], c.io)).toBe(2);
    expect(c.err()).toMatch(/^commerce-sim rules: unknown option --yaml /);
  });
});

describe('commerce-sim openapi', () => {
  it('prints the OpenAPI document as JSON, with the server URL asked for', async () => {
    const c = captureIo();
    expect(await openapi(['--server', 'http://localhost:9000'], c.io)).toBe(0);
    const doc = parseJson(c.out());
    expect(at(doc, 'openapi')).toBe('3.1.0');
    expect(at(doc, 'servers.0.url')).toBe('http://localhost:9000');
  });

  it('is byte-identical from run to run', async () => {
    const a = captureIo();
    const b = captureIo();
    await openapi([], a.io);
    await openapi([], b.io);
    expect(b.out()).toBe(a.out());
  });

  it('refuses a server that is not a URL', async () => {
    const c = captureIo();
    expect(await openapi(['--server', 'nope'], c.io)).toBe(2);
    expect(c.err()).toMatch(/^commerce-sim openapi: .* \(see commerce-sim openapi --help\)\n$/);
  });
});

describe('commerce-sim serve: options', () => {
  it('defaults: 127.0.0.1:4747, seed 42, virtual clock, the default client id', () => {
    expect(parseServeArgs([])).toEqual({
      port: 4747,
      host: '127.0.0.1',
      json: false,
      allowAnyClient: false,
      clientId: 'commerce-sim',
      simulator: { seed: 42, clock: { mode: 'virtual' }, defaultClientId: 'commerce-sim' },
    });
  });

  it('reads every option', () => {
    const parsed = parseServeArgs([
      '--port',
      '0',
      '--host',
      '::1',
      '--sim-seed',
      '7',
      '--accounts',
      '1000',
      '--count',
      'orders=20000',
      '--count',
      'files=3',
      '--dataset',
      'shared-timestamps',
      '--deviate',
      'filter.gt',
      '--deviate',
      'create.status.201',
      '--clock',
      'wall',
      '--clock-step',
      '5',
      '--client-id',
      'ci-suite',
      '--json',
      '--clients',
      'clients.yaml',
      '--max-projects',
      '50',
      '--max-project-records',
      '900',
    ]);
    expect(parsed).toEqual({
      port: 0,
      host: '::1',
      json: true,
      allowAnyClient: false,
      clientsFile: 'clients.yaml',
      clientId: 'ci-suite',
      dataset: 'shared-timestamps',
      simulator: {
        seed: 7,
        accounts: 1000,
        counts: { orders: 20000, files: 3 },
        deviate: ['filter.gt', 'create.status.201'],
        clock: { mode: 'wall', stepMs: 5 },
        defaultClientId: 'ci-suite',
        maxProjects: 50,
        maxProjectRecords: 900,
      },
    });
  });

  it('--help', () => {
    expect(parseServeArgs(['--help'])).toBe('help');
  });

  it('--shutdown-grace MS', () => {
    expect(parseServeArgs(['--shutdown-grace', '250'])).toMatchObject({ graceMs: 250 });
  });

  it('a non-loopback host is accepted with --clients or --allow-any-client; loopback hosts need neither', () => {
    expect(parseServeArgs(['--host', '0.0.0.0', '--clients', 'c.json'])).toMatchObject({ host: '0.0.0.0', clientsFile: 'c.json' });
    expect(parseServeArgs(['--host', '0.0.0.0', '--allow-any-client'])).toMatchObject({ host: '0.0.0.0', allowAnyClient: true });
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]']) expect(parseServeArgs(['--host', host])).toMatchObject({ host });
  });

  it.each([
    [['--port', 'x']],
    [['--port', '70000']],
    [['--sim-seed', '-1']],
    [['--accounts', '1.5']],
    [['--count', 'orders']],
    [['--count', 'widgets=3']],
    [['--count', 'orders=-3']],
    [['--deviate', 'no.such.rule']],
    [['--clock', 'fast']],
    [['--clock-step', 'soon']],
    [['--client-id', '']],
    [['--max-projects', '0']],
    [['--max-project-records', 'many']],
    [['--shutdown-grace', 'soon']],
    // Reachable from other machines with any client id welcome: only when asked for by name.
    [['--host', '0.0.0.0']],
    [['--host', '192.168.1.5']],
    [['--host', '::']],
    [['--unknown']],
    [['positional']],
  ])('refuses %j as a usage error', (argv) => {
    expect(() => parseServeArgs(argv)).toThrow(UsageError);
  });
});

describe('commerce-sim serve: what it prints', () => {
  const info: ServeInfo = {
    base_url: 'http://127.0.0.1:4747',
    client_id: 'commerce-sim',
    registered_clients: false,
    readings: {},
    token: 'tok123',
    token_scope: 'read-write',
    realm_id: 'realm-1',
    user_authentication_info_id: 'uai-1',
    password_profile_id: 'pp-1',
    admin_token: 'sim-admin-abc',
    seed: 42,
    curl: "curl -g -H 'Authorization: Bearer tok123' 'http://127.0.0.1:4747/v2/accounts?page[limit]=3'",
    pid: 4242,
  };

  it('--json: exactly one JSON line with every member', () => {
    const text = formatServeInfo(info, true);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trimEnd().split('\n')).toHaveLength(1);
    expect(parseJson(text)).toEqual(info);
  });

  it('text: the base URL, the token, the three ids, the admin token and a curl line', () => {
    const text = formatServeInfo(info, false);
    for (const value of ['http://127.0.0.1:4747', 'tok123', 'realm-1', 'uai-1', 'pp-1', 'sim-admin-abc']) expect(text).toContain(value);
    expect(text.split('\n').filter((l) => l.includes('curl '))).toHaveLength(1);
  });
});
