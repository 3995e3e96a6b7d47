/**
 * One name per thing (issue 35): every command that starts an embedded simulator takes the same simulator
 * flags from one definition, with the same help; the data seed is --sim-seed everywhere and the old --seed
 * is refused with a pointer; a list where one value is expected says how to repeat the flag.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { proxy } from '../../src/cli/proxy.js';
import { commands } from '../../src/cli/registry.js';
import { parseServeArgs } from '../../src/cli/serve.js';
import { SIM_OPTIONS } from '../../src/cli/sim-options.js';
import { Simulator } from '../../src/sim/simulator.js';
import { captureIo } from '../support/cli-io.js';

const dir = mkdtempSync(join(tmpdir(), 'commerce-sim-sim-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function call(name: string, argv: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const command = await commands[name]?.load();
  if (command === undefined) throw new Error(`no command ${name}`);
  const c = captureIo({ cwd: dir });
  const code = await command(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}

const usageError = (name: string, message: string) => ({ code: 2, out: '', err: `commerce-sim ${name}: ${message} (see commerce-sim ${name} --help)\n` });

/** The commands that start an embedded simulator a user sets up, and the argv that makes each start one. */
const EMBEDDING = ['run', 'props', 'serve', 'proxy', 'export'] as const;
const SIM_FLAGS = Object.keys(SIM_OPTIONS);

describe('the embedded simulator’s flags', () => {
  it.each(EMBEDDING)('%s takes every one of them, from the one definition', async (name) => {
    const command = await commands[name]?.load();
    const options: Record<string, unknown> = { ...command?.options };
    for (const flag of SIM_FLAGS) expect(options[flag], `--${flag}`).toBe(SIM_OPTIONS[flag as keyof typeof SIM_OPTIONS]);
  });

  it('every command describes them in the same words', async () => {
    const described = new Map<string, Set<string>>();
    for (const name of EMBEDDING) {
      const usage = (await commands[name]?.load())?.usage ?? '';
      for (const flag of SIM_FLAGS) {
        const line = usage.split('\n').find((l) => l.trimStart().startsWith(`--${flag} `));
        expect(line, `${name} --${flag}`).toBeDefined();
        const words = (line ?? '').trim().split(/\s{2,}/)[1] ?? '';
        described.set(flag, (described.get(flag) ?? new Set()).add(words));
      }
    }
    for (const [flag, words] of described) expect([...words], `--${flag}`).toHaveLength(1);
  });

  it.each([
    ['serve', ['--seed', '7']],
    ['proxy', ['--upstream', 'sim', '--seed', '7']],
    ['export', ['accounts', '--seed', '7']],
    ['fixtures', ['--seed', '7']],
    ['record', ['--target', 'sim', '--seed', '7']],
    ['diff', ['--a', 'sim', '--b', 'sim', '--seed', '7']],
  ])('%s refuses the old --seed, naming --sim-seed', async (name, argv) => {
    expect(await call(name, argv)).toEqual(usageError(name, "--seed is now --sim-seed (the simulator's data seed has one name in every command): give --sim-seed 7"));
  });

  it('run refuses --seed with its own pointer (props --seed is fast-check’s)', async () => {
    expect(await call('run', ['--seed', '7'])).toEqual(usageError('run', "run has no fast-check seed: give the simulator's data seed as --sim-seed 7 (--seed is props' fast-check seed)"));
  });

  it.each([
    ['serve', ['--count', 'orders=10500,files=10200'], '--count takes one value; give the flag once for each: --count orders=10500 --count files=10200'],
    ['run', ['--reading', 'meta.position=top,timestamps.precision=us'], '--reading takes one value; give the flag once for each: --reading meta.position=top --reading timestamps.precision=us'],
    ['props', ['--deviate', 'filter.gt,filter.ge'], '--deviate takes one value; give the flag once for each: --deviate filter.gt --deviate filter.ge'],
    ['export', ['accounts', '--count', 'orders=3, files=4'], '--count takes one value; give the flag once for each: --count orders=3 --count files=4'],
  ])('%s: a list where one value is expected says how to repeat the flag', async (name, argv, message) => {
    expect(await call(name, argv)).toEqual(usageError(name, message));
  });

  it('a bad value names the flag as given: --count orders=x, --sim-seed x', async () => {
    expect((await call('proxy', ['--upstream', 'sim', '--count', 'orders=x'])).err).toMatch(
      /^commerce-sim proxy: --count orders must be a whole number from 0 to \d+ \(see commerce-sim proxy --help\)\n$/,
    );
    expect((await call('export', ['accounts', '--sim-seed', 'x'])).err).toMatch(/^commerce-sim export: --sim-seed must be a whole number from 0 to \d+ \(see commerce-sim export --help\)\n$/);
  });

  it('against a URL the simulator’s flags are refused, naming where they apply', async () => {
    expect(await call('proxy', ['--upstream', 'http://127.0.0.1:9', '--count', 'orders=3', '--dataset', 'hostile'])).toEqual(
      usageError('proxy', '--count, --dataset apply to the embedded simulator only (--upstream sim)'),
    );
    expect(await call('export', ['accounts', '--target', 'http://127.0.0.1:9', '--accounts', '3'])).toEqual(usageError('export', '--accounts applies to the embedded simulator only (--target sim)'));
  });

  it('serve reads --sim-seed as the data seed', () => {
    expect(parseServeArgs(['--sim-seed', '7', '--count', 'orders=3'])).toMatchObject({ simulator: { seed: 7, counts: { orders: 3 } } });
  });

  it('proxy --upstream sim plays the simulator the flags describe: --sim-seed and --count as serve would', async () => {
    let resolveUrl: (url: string) => void = () => undefined;
    const announced = new Promise<string>((done) => (resolveUrl = done));
    let err = '';
    const stderr = new Writable({
      write(chunk: Buffer, _enc, done) {
        err += chunk.toString();
        const m = /commerce-sim proxy: (http:\/\/127\.0\.0\.1:\d+) → the embedded simulator \(token: ([^)]+)\)/.exec(err);
        if (m?.[1] !== undefined && m[2] !== undefined) resolveUrl(`${m[1]} ${m[2]}`);
        done();
      },
    });
    const c = captureIo({ cwd: dir });
    const running = proxy(['--upstream', 'sim', '--port', '0', '--requests', '1', '--quiet', '--sim-seed', '7', '--count', 'orders=3', '--report', 'proxy-reports'], { ...c.io, stderr });
    const [url = '', token = ''] = (await announced).split(' ');
    const res = await fetch(`${url}/v2/orders`, { headers: { authorization: `Bearer ${token}` } });
    const ids = ((await res.json()) as { data: { id: string }[] }).data.map((o) => o.id);
    await running;
    // The reference: a simulator built directly with the same seed and count.
    const sim = new Simulator({ seed: 7, counts: { orders: 3 }, wallClock: () => 0 });
    const direct = JSON.parse(sim.handle({ method: 'GET', url: '/v2/orders', headers: { authorization: `Bearer ${sim.issueToken('a', 'read-write')}` }, body: '' }).body) as { data: { id: string }[] };
    expect(ids).toEqual(direct.data.map((o) => o.id));
    expect(ids).toHaveLength(3);
  });
});
