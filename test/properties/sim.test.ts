/** Every property suite against the in-process simulator, plus the runner's handling of failures, stops and secrets. */
import { describe, expect, it } from 'vitest';
import { ruleById } from '../../src/rules/catalogue.js';
import { properties, selectProperties } from '../../src/properties/registry.js';
import { pageArithmeticRunsPerSecond } from '../../src/bench/property-speed.js';
import { NOT_RUN, runProperties, SKIP_ADMIN, SKIP_WRITES } from '../../src/properties/runner.js';
import { createSimTarget } from '../../src/adapters/simulator.js';
import { TargetError } from '../../src/port.js';
import { failing, passwordsSent, runOne, SEED, wrap } from './helpers.js';

describe('property suites against the in-process simulator', () => {
  it('all pass with a fixed seed, each judging the rules it promises', async () => {
    const target = await createSimTarget();
    const results = await runProperties(properties, { target, ruleById, seed: SEED, runs: 80, strict: true });
    expect(results.map((r) => [r.name, r.status, failing(r)])).toEqual(properties.map((p) => [p.name, 'pass', []]));
    for (const r of results) {
      expect(r.seed).toBe(SEED);
      expect(r.numRuns).toBe(80);
      // Every rule a property lists is in the catalogue, and the oracle judged (not skipped) it in some run.
      const notJudged = r.verdicts.filter((v) => v.outcome.status !== 'pass').map((v) => `${v.ruleId}: ${v.outcome.status === 'skip' ? v.outcome.reason : ''}`);
      expect(notJudged, r.name).toEqual([]);
      for (const id of r.rules) expect(ruleById(id), id).toBeDefined();
    }
  });

  it('gives the same results for the same seed', async () => {
    const run = async () => runProperties(properties, { target: await createSimTarget(), ruleById, seed: 7, runs: 15, strict: true });
    expect(JSON.stringify(await run())).toBe(JSON.stringify(await run()));
  });

  it('robustness finds a 5xx and the target that stops answering', async () => {
    const sim = await createSimTarget();
    const target = wrap(sim, async (req, res) => (req.method === 'PATCH' ? { status: 502, headers: {}, body: 'Bad Gateway' } : res()));
    const [r] = await runProperties(selectProperties('robustness'), { target, ruleById, seed: SEED, runs: 200, strict: true });
    expect(r?.status).toBe('fail');
    expect(failing(r!)).toContain('errors.no-5xx');
    expect(r?.counterexample).toContain('"method":"PATCH"');
    expect(r?.replay).toMatch(/^commerce-sim props --target sim --strict --seed \d+ --path "[\d:]+" --grep robustness$/);
  });

  it('robustness reports a handler that throws in process as a server error', async () => {
    const sim = await createSimTarget();
    const target = wrap(sim, async (req, res) => {
      if (req.method === 'DELETE') throw new RangeError('boom');
      return res();
    });
    const [r] = await runProperties(selectProperties('robustness'), { target, ruleById, seed: SEED, runs: 200, strict: true });
    const v = r?.verdicts.find((x) => x.ruleId === 'errors.no-5xx');
    expect(v?.outcome.status === 'fail' && v.outcome.message).toMatch(/DELETE .* made the simulator throw: boom/);
  });

  it('stops a property at the request budget and says so', async () => {
    const sim = await createSimTarget();
    let sent = 0;
    const refused: string[] = [];
    const target = wrap(sim, async (req, res) => {
      sent += 1;
      if (sent <= 30) return res();
      refused.push(req.url);
      throw new TargetError('TARGET_BUDGET_EXHAUSTED', 'request budget of 30 exhausted');
    });
    const [r] = await runProperties(selectProperties('page-arithmetic'), { target, ruleById, seed: SEED, runs: 100, strict: true });
    expect(r?.status).toBe('skip');
    expect(r?.skipReason).toMatch(/^stopped after \d+ of 100 runs: request budget of 30 exhausted \(TARGET_BUDGET_EXHAUSTED\)$/);
    // After the first refusal only the runner's attempt to put the simulator's data back.
    expect(refused.slice(1)).toEqual(['/__sim/seed']);
  });

  it('without --strict reports a failing assumed rule without shrinking it, and --strict replays it', async () => {
    const sim = await createSimTarget();
    // A server that refuses bad page parameters with 422 instead of 400: only assumed rules break.
    const target = wrap(sim, async (_req, res) => {
      const r = await res();
      return r.status === 400 ? { ...r, status: 422, body: r.body.replace(/"status":"?400"?/g, '"status":422') } : r;
    });
    const options = { target, ruleById, seed: SEED, runs: 100, command: 'commerce-sim props --target sim' };
    const [lenient] = await runProperties(selectProperties('page-arithmetic'), options);
    expect(lenient?.status).toBe('fail');
    expect(failing(lenient!)).toContain('pagination.params.invalid-400');
    expect(failing(lenient!).every((id) => ruleById(id)?.level === 'assumed')).toBe(true);
    expect(lenient?.path).toBeUndefined();
    expect(lenient?.replay).toBe(`commerce-sim props --target sim --strict --seed ${SEED} --grep page-arithmetic`);
    const documented = lenient!.verdicts.filter((v) => ruleById(v.ruleId)?.level === 'documented');
    expect(documented.every((v) => v.outcome.status === 'pass')).toBe(true);

    const [strict] = await runProperties(selectProperties('page-arithmetic'), { ...options, strict: true });
    expect(strict?.status).toBe('fail');
    expect(strict?.path).toMatch(/^\d+(:\d+)*$/);
    expect(failing(strict!).length).toBeGreaterThan(0);
    expect(failing(strict!).every((id) => ruleById(id)?.level === 'assumed')).toBe(true);
  });

  it('skips writing properties on a live target without --allow-writes, and admin ones without the admin API', async () => {
    const sim = await createSimTarget();
    const { admin_token: _admin, ...vars } = sim.vars;
    const live = wrap(sim, (_req, res) => res(), { kind: 'http', vars });
    const results = await runProperties(properties, { target: live, ruleById, seed: SEED, runs: 5, strict: true });
    const status = Object.fromEntries(results.map((r) => [r.name, r.skipReason ?? r.status]));
    expect(status).toEqual({
      'page-arithmetic': 'pass',
      'offset-limits': 'pass',
      keyset: SKIP_ADMIN,
      // Read-only keyset walks over existing data need neither writes nor the admin API.
      'keyset-reads': 'pass',
      'sort-filter': 'pass',
      'page-length': SKIP_WRITES,
      create: SKIP_WRITES,
      robustness: 'pass',
      model: SKIP_ADMIN,
    });
    const skipped = results.find((r) => r.name === 'create');
    expect(skipped?.verdicts.every((v) => v.outcome.status === 'skip')).toBe(true);
    // Read-only robustness sends only GET, HEAD and OPTIONS.
    const methods = new Set<string>();
    const spy = wrap(
      sim,
      (req, res) => {
        methods.add(req.method);
        return res();
      },
      { kind: 'http', vars },
    );
    await runProperties(selectProperties('robustness'), { target: spy, ruleById, seed: SEED, runs: 60, strict: true });
    expect([...methods].sort()).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });

  it('tells a property that broke apart from a failing rule, with a replay', async () => {
    const sim = await createSimTarget();
    // The admin API refuses one kind of seeding the keyset walk asks for: nothing is judged, nothing fails.
    const target = wrap(sim, async (req, res) => (req.url === '/__sim/seed' && req.body?.includes('shared-timestamps') === true ? { status: 503, headers: {}, body: '' } : res()));
    const [r] = await runProperties(selectProperties('keyset'), { target, ruleById, seed: SEED, runs: 50, strict: true });
    expect(r?.status).toBe('skip');
    expect(r?.skipReason).toMatch(new RegExp(`^${NOT_RUN}: AdminError: seeding the walk's data answered 503`));
    expect(r?.replay).toMatch(/--seed \d+ --path "[\d:]+" --grep keyset$/);
    expect(r?.counterexample).toContain('"profile":"shared-timestamps"');
    expect(failing(r!)).toEqual([]);
  });

  it('the model test catches a virtual clock that does not move', async () => {
    const sim = await createSimTarget();
    const target = wrap(sim, async (req, res) => (req.url === '/__sim/clock' ? { status: 200, headers: {}, body: '{"data":{}}' } : res()));
    const [r] = await runProperties(selectProperties('model'), { target, ruleById, seed: SEED, runs: 100, strict: true });
    expect(failing(r!)).toEqual(['sim.clock']);
    expect(r?.counterexample).toMatch(/clock\(\+\d+ ms\),create\(/);
  });

  it('skips the create property, with the reason, when the target does not name the parent ids', async () => {
    const sim = await createSimTarget();
    const live = wrap(sim, (_req, res) => res(), { kind: 'http', vars: {} });
    const [r] = await runProperties(selectProperties('create'), { target: live, ruleById, seed: SEED, runs: 5, allowWrites: true });
    expect(r?.status).toBe('skip');
    expect(r?.skipReason).toMatch(/--var realm_id=\.\.\. .* \(PROPS_SETUP\)$/);
  });

  it('keeps generated passwords out of results, even when the server echoes them', async () => {
    const sim = await createSimTarget({ deviate: ['create.password.not-returned'] });
    const bodies: string[] = [];
    const target = wrap(sim, (req, res) => {
      if (req.body !== undefined) bodies.push(req.body);
      return res();
    });
    const [r] = await runProperties(selectProperties('create'), { target, ruleById, seed: SEED, runs: 50, strict: true });
    expect(failing(r!)).toContain('create.password.not-returned');
    const text = JSON.stringify(r);
    const passwords = passwordsSent(bodies);
    expect(passwords.length).toBeGreaterThan(0);
    for (const pw of passwords) expect(text).not.toContain(JSON.stringify(pw).slice(1, -1));
    expect(r?.counterexample).toMatch(/"password_length":\d+/);
    expect(text).toContain('[REDACTED]');
  });

  it('names the property in a failure and replays it from the printed seed and path', async () => {
    const first = await runOne('page-arithmetic', { deviate: ['pagination.page.total'] });
    const match = /--seed (\d+) --path "([^"]+)" --grep (\S+)$/.exec(first.replay ?? '');
    expect(match?.[3]).toBe('page-arithmetic');
    const again = await runOne('page-arithmetic', { deviate: ['pagination.page.total'], seed: Number(match?.[1]), path: match?.[2], runs: 1 });
    expect(again.counterexample).toBe(first.counterexample);
    expect(again.verdicts.filter((v) => v.outcome.status === 'fail')).toEqual(first.verdicts.filter((v) => v.outcome.status === 'fail'));
  });

  it('measures page-arithmetic runs for the bench (the figure itself is only printed by npm run bench)', async () => {
    const r = await pageArithmeticRunsPerSecond(await createSimTarget(), 200);
    expect(r).toMatchObject({ property: 'page-arithmetic', runs: 200, passed: true });
    expect(r.runsPerSecond).toBeGreaterThan(0);
  });
});
