/**
 * The documented-only surface decides what to serve from its own reading of the document, not the kit's
 * classifier: the two readings agree on every request the shipped suite sends (what one refuses, the
 * other puts outside the document for every rule), and on requests built to sit at their edges.
 */
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/kit/mutation.js';
import { classifyRequest, type Classification, type SurfaceGap } from '../../src/rules/surface.js';
import { runScenarios } from '../../src/scenarios/runner.js';
import { ruleById } from '../../src/rules/catalogue.js';
import { createSimTarget } from '../../src/adapters/simulator.js';
import { refuseUndocumented } from '../../src/sim/surface.js';
import type { TargetRequest } from '../../src/port.js';

/** Gaps that put a request outside the document for every rule and answer: what the documented surface must refuse. */
const unconditionalGaps = (c: Classification): readonly SurfaceGap[] => c.gaps.filter((g) => g.when === undefined && g.insideFor === undefined && g.outsideFor === undefined);

/** Whether the kit's classifier puts the request outside the document for every rule and answer (what a documented-only deployment may refuse). */
const classifierRefuses = (r: TargetRequest): boolean => {
  const gaps = unconditionalGaps(classifyRequest(r));
  return gaps.length > 0 && !gaps.every((g) => g.part === 'auth');
};
const surfaceRefuses = (r: TargetRequest): boolean => refuseUndocumented({ method: r.method, url: r.url, headers: r.headers ?? {}, body: r.body ?? '' }) !== undefined;

describe('the documented surface and the classifier', () => {
  it('agree on every request of the shipped suite', async () => {
    const sent: TargetRequest[] = [];
    const sim = await createSimTarget({ wallClock: () => Date.UTC(2025, 0, 1) });
    const recording = { ...sim, send: (r: TargetRequest) => (sent.push(r), sim.send(r)) };
    await runScenarios(await loadSuite(), { target: recording, ruleById, concurrency: 1 });
    const api = sent.filter((r) => !r.url.startsWith('/__sim/') && !r.url.startsWith('/oauth/'));
    expect(api.length).toBeGreaterThan(200);
    const disagree = api.filter((r) => classifierRefuses(r) !== surfaceRefuses(r)).map((r) => `${r.method} ${r.url} (classifier ${classifierRefuses(r)}, surface ${surfaceRefuses(r)})`);
    expect(disagree).toEqual([]);
    expect(api.filter(surfaceRefuses).length).toBeGreaterThan(20);
  });

  it.each([
    ['GET', '/v2/accounts?page[limit]=100&page[offset]=10000&sort=id&filter=gt(id,abc)'],
    ['GET', '/v2/accounts?filter=ge(created_at,2025-01-01T00:00:00.123456Z)'],
    ['GET', '/v2/accounts?filter=gt(id,a):ge(id,b)'],
    ['GET', '/v2/accounts?filter=gt(created_at,x)'],
    ['GET', '/v2/accounts?sort=-id'],
    ['GET', '/v2/accounts?page[offset]=10001'],
    ['GET', '/v2/orders?page[offset]=10001'],
    ['GET', '/v2/orders?sort=id'],
    ['GET', '/v2/accounts?page[limit]=0'],
    ['GET', '/v2/accounts?page[limit]=150'],
    ['GET', '/v2/accounts?page%5Blimit%5D=5'],
    ['GET', '/v2/accounts?page[limit]=5&page[limit]=5'],
    ['GET', '/v2/customers'],
    ['POST', '/v2/accounts'],
    ['GET', '/v2/settings'],
    ['POST', '/v2/authentication-realms/r/user-authentication-info/u/user-authentication-password-profile-info/?x=1'],
  ])('agree on %s %s', (method, url) => {
    const r: TargetRequest = { method, url };
    expect(surfaceRefuses(r)).toBe(classifierRefuses(r));
  });
});
