/**
 * Request bodies bounded by shape: every JSON body the API, the token endpoint and the admin API parse
 * (unknown members included) is measured before it is parsed, and past MAX_BODY_DEPTH levels or
 * MAX_BODY_VALUES values answers 400 naming the limit. A parse costs by the values a body holds, not
 * its bytes: 60,000 unknown members, or 400,000 levels inside one, used to be parsed and stored (201).
 */
import { describe, expect, it, vi } from 'vitest';
import { NO_DEVIATIONS } from '../../src/engine/deviations.js';
import { MAX_BODY_DEPTH, MAX_BODY_VALUES } from '../../src/engine/field-limits.js';
import { jsonShapeProblem } from '../../src/engine/json-shape.js';
import { buildRouter } from '../../src/sim/routes.js';
import { at, expectErrorShape, harness, profileBody, profilePath, str, type Reply } from './helpers.js';

const TOO_DEEP = `nests deeper than ${MAX_BODY_DEPTH} levels`;
const TOO_MANY = `holds more than ${MAX_BODY_VALUES} values`;

/** `members` (a JSON object's text) with one more member `x` holding `n` nested arrays. */
const nested = (members: string, n: number) => `${members.slice(0, -1)},"x":${'['.repeat(n)}${']'.repeat(n)}}`;
/** `members` with `n` more members `k0`, `k1`, ... */
const widened = (members: string, n: number) => `${members.slice(0, -1)},${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}`;
/** A create body whose `data` object gets the extra members. */
const account = JSON.stringify({ type: 'account', name: 'Acme' });
const inData = (f: (members: string) => string, data = account) => `{"data":${f(data)}}`;

function refusedFor(reply: Reply, words: string): void {
  expectErrorShape(reply, 400);
  expect(String(at(reply.json, 'errors.0.detail'))).toBe(`The request body ${words}`);
}

describe('request bodies bounded by shape', () => {
  it('a create with 60,000 unknown members answers 400 naming the limit, and stores nothing', () => {
    const h = harness();
    const before = h.sim.project(h.sim.defaultClientId).ownRecordCount;
    refusedFor(
      h.post(
        '/v2/accounts',
        inData((m) => widened(m, 60_000)),
      ),
      TOO_MANY,
    );
    const profile = JSON.stringify(profileBody(h.ids).data);
    refusedFor(
      h.post(
        profilePath(h.ids),
        inData((m) => widened(m, 60_000), profile),
      ),
      TOO_MANY,
    );
    expect(h.sim.project(h.sim.defaultClientId).ownRecordCount).toBe(before);
  });

  it('400,000 levels of nesting inside an unknown member answer 400 naming the limit', () => {
    const h = harness();
    refusedFor(
      h.post(
        '/v2/accounts',
        inData((m) => nested(m, 400_000)),
      ),
      TOO_DEEP,
    );
    const profile = JSON.stringify(profileBody(h.ids).data);
    refusedFor(
      h.post(
        profilePath(h.ids),
        inData((m) => nested(m, 400_000), profile),
      ),
      TOO_DEEP,
    );
  });

  it('every route that parses a JSON body refuses past either limit: the API, the token endpoint, the admin API (not POST /__sim/restore)', () => {
    const h = harness();
    const accountId = str(h.get('/v2/accounts?page[limit]=1').json, 'data.0.id');
    const profileId = str(h.post(profilePath(h.ids), profileBody(h.ids)).json, 'data.id');
    const pathOf = (template: string) =>
      template
        .replace(':realm', h.ids.realm_id)
        .replace(':uai', h.ids.user_authentication_info_id)
        .replace(':id', template.startsWith('/v2/accounts') ? accountId : profileId);
    const routes = buildRouter(NO_DEVIATIONS)
      .entries()
      // Reset reads no body; restore bodies are snapshots, large by nature, with a reader of their own.
      .filter((r) => (r.method === 'POST' || r.method === 'PUT') && r.template !== '/__sim/reset' && r.template !== '/__sim/restore');
    expect(routes.length).toBeGreaterThanOrEqual(10);
    const send = (method: string, template: string, auth: string, body: string) =>
      h.call(method, pathOf(template), { token: auth === 'admin' ? h.sim.adminToken : auth === 'none' ? null : h.token, body, headers: { 'content-type': 'application/json' } });
    for (const { method, template, handler } of routes) {
      const members = template === '/oauth/access_token' ? '{"grant_type":"implicit","client_id":"shape"}' : template.startsWith('/__sim/') ? '{}' : `{"data":${account}}`;
      const deep = members === '{}' ? `{"x":${'['.repeat(MAX_BODY_DEPTH)}${']'.repeat(MAX_BODY_DEPTH)}}` : nested(members, MAX_BODY_DEPTH);
      expect([method, template, send(method, template, handler.auth, deep).json]).toEqual([
        method,
        template,
        expect.objectContaining({ errors: [expect.objectContaining({ detail: `The request body ${TOO_DEEP}` })] }),
      ]);
      const wide = members === '{}' ? `{${Array.from({ length: MAX_BODY_VALUES }, (_, i) => `"k${i}":1`).join(',')}}` : widened(members, MAX_BODY_VALUES);
      expect([method, template, send(method, template, handler.auth, wide).json]).toEqual([
        method,
        template,
        expect.objectContaining({ errors: [expect.objectContaining({ detail: `The request body ${TOO_MANY}` })] }),
      ]);
    }
  });

  it('no body past a limit is ever parsed, also by the documented surface, which leaves the refusal to the create', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      for (const surface of ['full', 'documented'] as const) {
        const h = harness({ surface });
        const profile = JSON.stringify(profileBody(h.ids).data);
        const deep = inData((m) => nested(m, 400_000), profile);
        const wide = inData((m) => widened(m, 60_000), profile);
        refusedFor(h.post(profilePath(h.ids), deep), TOO_DEEP);
        refusedFor(h.post(profilePath(h.ids), wide), TOO_MANY);
        expect(parse.mock.calls.filter(([text]) => text === deep || text === wide)).toEqual([]);
      }
    } finally {
      parse.mockRestore();
    }
  });

  it('a body at both limits is read as before: unknown members are ignored and the account is created', () => {
    const h = harness();
    // `{"data":{...}}` is two levels: one unknown member nests 30 more, and unknown members pad the values to the limit.
    const deepest = `{"data":${nested(account, MAX_BODY_DEPTH - 2)}}`;
    const values = (text: string) => Array.from({ length: MAX_BODY_VALUES + 1 }, (_, v) => v).find((v) => jsonShapeProblem(text, { maxDepth: MAX_BODY_DEPTH, maxValues: v }) === undefined) ?? Infinity;
    const body = `{"data":${widened(nested(account, MAX_BODY_DEPTH - 2), MAX_BODY_VALUES - values(deepest))}}`;
    expect(jsonShapeProblem(body, { maxDepth: MAX_BODY_DEPTH, maxValues: MAX_BODY_VALUES })).toBeUndefined();
    expect(jsonShapeProblem(body, { maxDepth: MAX_BODY_DEPTH - 1, maxValues: MAX_BODY_VALUES })).toBeDefined();
    expect(jsonShapeProblem(body, { maxDepth: MAX_BODY_DEPTH, maxValues: MAX_BODY_VALUES - 1 })).toBeDefined();
    expect(h.post('/v2/accounts', body).status).toBe(201);
  });
});
