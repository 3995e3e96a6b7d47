/**
 * Breaks a deployment may have that no single deviation of the simulator plays, made by wrapping the
 * in-process simulator: the shipped suite (read-only and with writes) must fail the documented rule
 * each one breaks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/kit/mutation.js';
import { summariseRules } from '../../src/report/summarise.js';
import { catalogue, ruleById } from '../../src/rules/catalogue.js';
import type { Scenario } from '../../src/scenarios/format.js';
import { runScenarios } from '../../src/scenarios/runner.js';
import { createSimTarget } from '../../src/adapters/simulator.js';
import type { Target, TargetRequest, TargetResponse } from '../../src/port.js';

type Bend = { readonly request?: (r: TargetRequest) => TargetRequest; readonly response?: (r: TargetResponse, req: TargetRequest) => TargetResponse };

async function failingRules(scenarios: readonly Scenario[], bend: Bend, dataset?: string): Promise<string[]> {
  const sim = await createSimTarget({ wallClock: () => Date.UTC(2025, 0, 1), ...(dataset === undefined ? {} : { dataset }) });
  const target: Target = {
    kind: sim.kind,
    baseUrl: sim.baseUrl,
    vars: sim.vars,
    async send(request) {
      const sent = bend.request?.(request) ?? request;
      const response = await sim.send(sent);
      return bend.response?.(response, request) ?? response;
    },
    close: () => sim.close(),
  };
  const results = await runScenarios(scenarios, { target, ruleById, concurrency: 1 });
  return summariseRules(catalogue, results, [])
    .filter((r) => r.status === 'fail' && r.level === 'documented')
    .map((r) => r.id);
}

const json = (r: TargetResponse): unknown => JSON.parse(r.body) as unknown;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

describe('breaks the shipped suite catches', () => {
  let suite: Scenario[];
  let readOnly: Scenario[];
  beforeAll(async () => {
    suite = await loadSuite();
    // What a live run does without --allow-writes and without the simulator's admin API.
    readOnly = suite.filter((s) => !s.tags.includes('writes') && !s.tags.includes('sim-only'));
  });

  it('ge read as gt on timestamps only (ids right): filter.ge, read-only', async () => {
    const bend: Bend = { request: (r) => ({ ...r, url: r.url.replace(/ge\((created_at|updated_at),/g, 'gt($1,') }) };
    expect(await failingRules(readOnly, bend)).toContain('filter.ge');
  });

  it('usernames echoed lower-cased: create.response.fields', async () => {
    const bend: Bend = {
      response: (r, req) => {
        if (req.method !== 'POST' || r.status !== 201) return r;
        const body = json(r);
        if (!isObj(body) || !isObj(body['data']) || typeof body['data']['username'] !== 'string') return r;
        return { ...r, body: JSON.stringify({ ...body, data: { ...body['data'], username: body['data']['username'].toLowerCase() } }) };
      },
    };
    expect(await failingRules(suite, bend)).toContain('create.response.fields');
  });

  it('page[offset] ignored when a filter is given (the offset still echoed): pagination.offset.records, read-only', async () => {
    const bend: Bend = {
      request: (r) => (r.method === 'GET' && /[?&]filter=/.test(r.url) ? { ...r, url: r.url.replace(/&page\[offset\]=\d+|page\[offset\]=\d+&?/, '') } : r),
      response: (r, req) => {
        const offset = /[?&]page\[offset\]=(\d+)/.exec(req.url)?.[1];
        if (offset === undefined || !/[?&]filter=/.test(req.url) || r.status !== 200) return r;
        const body = json(r);
        if (!isObj(body) || !isObj(body['meta']) || !isObj(body['meta']['page'])) return r;
        return { ...r, body: JSON.stringify({ ...body, meta: { ...body['meta'], page: { ...body['meta']['page'], offset: Number(offset) } } }) };
      },
    };
    expect(await failingRules(readOnly, bend)).toContain('pagination.offset.records');
  });
});
