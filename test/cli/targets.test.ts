import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/io.js';
import { createTarget, loadConfig, parseVarAssignments, readCredentials } from '../../src/cli/targets.js';

describe('--var', () => {
  it('parses name=value, values may hold =, later ones win', () => {
    expect(parseVarAssignments(['realm_id=r1', 'q=a=b', 'realm_id=r2'])).toEqual({ realm_id: 'r2', q: 'a=b' });
  });

  it.each(['novalue', '=x', 'bad name=1', '1x=2'])('refuses %s', (item) => {
    expect(() => parseVarAssignments([item])).toThrow(UsageError);
  });
});

describe('credentials', () => {
  const env = { TOKEN: ' tok ', SECRET: 's3', EMPTY: '' };

  it('reads a token or a client secret from the named variables', () => {
    expect(readCredentials({ env, tokenEnv: 'TOKEN' })).toEqual({ token: 'tok' });
    expect(readCredentials({ env, clientId: 'cid', clientSecretEnv: 'SECRET' })).toEqual({ clientId: 'cid', clientSecret: 's3' });
    expect(readCredentials({ env })).toEqual({});
  });

  it('refuses empty variables and half-given or mixed credentials', () => {
    expect(() => readCredentials({ env, tokenEnv: 'EMPTY' })).toThrow('the environment variable EMPTY is empty or not set');
    expect(() => readCredentials({ env, tokenEnv: 'MISSING' })).toThrow(UsageError);
    expect(() => readCredentials({ env, clientId: 'cid' })).toThrow('--client-id needs --client-secret-env');
    expect(() => readCredentials({ env, clientSecretEnv: 'SECRET' })).toThrow('--client-secret-env needs --client-id');
    expect(() => readCredentials({ env, tokenEnv: 'TOKEN', clientId: 'cid', clientSecretEnv: 'SECRET' })).toThrow('not both');
  });

  it('refuses a target that is neither sim nor a URL', async () => {
    await expect(createTarget('localhost:4747', { env })).rejects.toThrow("--target takes 'sim' or an http(s) URL");
  });
});

describe('--config', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'config-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads vars, credentials by variable name and a base URL', async () => {
    await writeFile(join(dir, 'c.yaml'), 'vars: { realm_id: r1, page_length: 10 }\ntoken_env: TOK\nbase_url: https://api.example.com\n');
    expect(await loadConfig('c.yaml', dir)).toEqual({ vars: { realm_id: 'r1', page_length: '10' }, tokenEnv: 'TOK', baseUrl: 'https://api.example.com' });
  });

  it('names the bad member, in plain words', async () => {
    await writeFile(join(dir, 'c.yaml'), 'vars: { realm_id: r1 }\ntoken: abc\n');
    await expect(loadConfig('c.yaml', dir)).rejects.toThrow("c.yaml:2: token: unknown key 'token' (one of: vars, token_env, client_id, client_secret_env, base_url)");
    await expect(loadConfig('missing.yaml', dir)).rejects.toThrow(UsageError);
  });

  const problem = async (name: string, text: string): Promise<string> => {
    await writeFile(join(dir, name), text);
    const error: unknown = await loadConfig(name, dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    return error instanceof Error ? error.message : '';
  };

  it('gives the line of a bad member: file:line: member: what is wrong', async () => {
    const text = ['# the team config', 'base_url: https://api.example.com', 'vars:', '  realm_id: [r1, r2]', '  client_id: c1', ''].join('\n');
    expect(await problem('commerce-sim.config.yaml', text)).toBe('commerce-sim.config.yaml:4: vars.realm_id: must be a string, a number or true/false');
    expect(await problem('c.yaml', 'vars: {}\n\nbase_url: ftp://example.com\n')).toBe("c.yaml:3: base_url: must be an http:// or https:// URL, got 'ftp://example.com'");
    expect(await problem('c.yaml', 'vars:\n  ok: 1\n  bad-name: 2\n')).toBe("c.yaml:3: vars.bad-name: 'bad-name' is not a variable name (letters, digits and _, not starting with __)");
    expect(await problem('c.yaml', 'vars: {}\ntokn_env: TOKEN\n')).toBe("c.yaml:2: tokn_env: unknown key 'tokn_env' (did you mean 'token_env'?)");
    expect(await problem('c.json', '{\n  "vars": {},\n  "client_id": ""\n}\n')).toBe('c.json:3: client_id: must not be empty');
  });

  it('gives the line and column of a YAML syntax error', async () => {
    const text = ['base_url: https://api.example.com', 'vars:', '  realm_id: r1', '\tclient_id: c1', ''].join('\n');
    expect(await problem('c.yaml', text)).toMatch(/^c\.yaml:4:1: Tabs are not allowed as indentation/);
    expect(await problem('c.json', '{\n  "vars": {},\n  "base_url": "https://x",,\n}\n')).toMatch(/^c\.json:3:\d+: /);
  });
});
