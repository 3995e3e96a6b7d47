import { describe, expect, it } from 'vitest';
import { parseScenarioText } from '../../src/scenarios/load.js';
import { runScenarios } from '../../src/scenarios/runner.js';
import type { CheckContext } from '../../src/rules/rule.js';
import { fakeTarget, json, listHandler, rulesOf, spyRule, type FakeRecord } from './fake.js';

const keysetId = spyRule('large-data.keyset.id');
const keysetTs = spyRule('large-data.keyset.timestamp');
const offsetRule = spyRule('pagination.offset.records');
const rules = rulesOf(keysetId, keysetTs, offsetRule);

const ts = (n: number) => `2024-01-01T00:00:0${n}.000Z`;
const ids = (n: number) => Array.from({ length: n }, (_, i) => `a${String(i + 1).padStart(2, '0')}`);

async function walk(walkYaml: string, records: readonly FakeRecord[], rule = 'large-data.keyset.id', extraHandlers: Parameters<typeof fakeTarget>[0]['handlers'] = []) {
  const text = `name: walk\nrules: [${rule}]\ntags: [writes]\nsteps:\n  - name: walk\n    walk: ${walkYaml}\n    rules: [${rule}]\n`;
  const { scenarios, problems } = parseScenarioText(text, 'walk.yaml', rules);
  expect(problems).toEqual([]);
  const target = fakeTarget({ handlers: [...extraHandlers, listHandler(records)] });
  const [result] = await runScenarios(scenarios, { target, ruleById: rules.ruleById });
  return { target, result };
}

const urls = (ctx: CheckContext | undefined) => ctx?.exchanges.map((e) => `${e.request.method} ${decodeURIComponent(e.request.url)}`) ?? [];
const seenIds = (ctx: CheckContext | undefined) =>
  new Set(
    ctx?.exchanges.slice(1).flatMap((e) => (e.json !== null && typeof e.json === 'object' && 'data' in e.json && Array.isArray(e.json.data) ? e.json.data.map((d: { id: string }) => d.id) : [])),
  );

describe('walks', () => {
  it('keyset-id: an initial unfiltered GET, then sort=id with gt(id,last) until an empty page', async () => {
    const records = ids(16).map((id) => ({ id, created_at: ts(1) }));
    const { result } = await walk('{ path: /v2/accounts, mode: keyset-id, limit: 7 }', records);
    expect(result?.status).toBe('pass');
    expect(urls(keysetId.seen.at(-1))).toEqual([
      'GET /v2/accounts?page[limit]=7',
      'GET /v2/accounts?sort=id&page[limit]=7',
      'GET /v2/accounts?sort=id&filter=gt(id,a07)&page[limit]=7',
      'GET /v2/accounts?sort=id&filter=gt(id,a14)&page[limit]=7',
      'GET /v2/accounts?sort=id&filter=gt(id,a16)&page[limit]=7',
    ]);
  });

  it('keyset-timestamp: ge(attr,last), and offset paging on the same filter while pages are uniform', async () => {
    const at = [1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 6];
    const records = ids(15).map((id, i) => ({ id, created_at: ts(at[i] ?? 0) }));
    await walk('{ path: /v2/accounts, mode: keyset-timestamp, attribute: created_at, limit: 4 }', records, 'large-data.keyset.timestamp');
    const ctx = keysetTs.seen.at(-1);
    expect(urls(ctx)).toEqual([
      'GET /v2/accounts?page[limit]=4',
      'GET /v2/accounts?sort=created_at&page[limit]=4',
      `GET /v2/accounts?sort=created_at&filter=ge(created_at,${ts(4)})&page[limit]=4`,
      `GET /v2/accounts?sort=created_at&filter=ge(created_at,${ts(4)})&page[limit]=4&page[offset]=4`,
      `GET /v2/accounts?sort=created_at&filter=ge(created_at,${ts(4)})&page[limit]=4&page[offset]=8`,
      `GET /v2/accounts?sort=created_at&filter=ge(created_at,${ts(6)})&page[limit]=4`,
    ]);
    expect(seenIds(ctx)).toEqual(new Set(ids(15)));
  });

  it('keyset-timestamp: a uniform first page continues at offset limit on ge(last)', async () => {
    const records = ids(6).map((id) => ({ id, created_at: ts(1) }));
    await walk('{ path: /v2/accounts, mode: keyset-timestamp, limit: 4 }', records, 'large-data.keyset.timestamp');
    expect(urls(keysetTs.seen.at(-1)).slice(1)).toEqual([
      'GET /v2/accounts?sort=created_at&page[limit]=4',
      `GET /v2/accounts?sort=created_at&filter=ge(created_at,${ts(1)})&page[limit]=4&page[offset]=4`,
    ]);
  });

  it('offset: page[offset] += limit until a page is shorter than the limit, extra query kept', async () => {
    const records = ids(10).map((id) => ({ id, created_at: ts(1) }));
    await walk('{ path: /v2/accounts, mode: offset, limit: 4, query: { sort: id } }', records, 'pagination.offset.records');
    expect(urls(offsetRule.seen.at(-1))).toEqual([
      'GET /v2/accounts?sort=id&page[limit]=4',
      'GET /v2/accounts?sort=id&page[limit]=4&page[offset]=0',
      'GET /v2/accounts?sort=id&page[limit]=4&page[offset]=4',
      'GET /v2/accounts?sort=id&page[limit]=4&page[offset]=8',
    ]);
  });

  it('sends between_pages once after page N, in order among the exchanges', async () => {
    const records = ids(5).map((id) => ({ id, created_at: ts(1) }));
    const put = (req: { method: string }) => (req.method === 'PUT' ? json(200, { data: { id: 'a01' } }) : undefined);
    await walk(
      '{ path: /v2/accounts, mode: keyset-id, limit: 2, between_pages: { after_page: 1, request: { method: PUT, path: /v2/accounts/a01, body: { data: { name: x } } } } }',
      records,
      'large-data.keyset.id',
      [put],
    );
    expect(urls(keysetId.seen.at(-1)).slice(0, 4)).toEqual([
      'GET /v2/accounts?page[limit]=2',
      'GET /v2/accounts?sort=id&page[limit]=2',
      'PUT /v2/accounts/a01',
      'GET /v2/accounts?sort=id&filter=gt(id,a02)&page[limit]=2',
    ]);
  });

  it('stops when the target ignores the filter (no progress) and at max_pages', async () => {
    const records = ids(5).map((id) => ({ id, created_at: ts(1) }));
    const ignoresFilter = (_req: unknown, url: URL) => {
      if (url.searchParams.get('filter') === null) return undefined;
      url.searchParams.delete('filter');
      return listHandler(records)({ method: 'GET', url: `${url.pathname}${url.search}` }, url);
    };
    await walk('{ path: /v2/accounts, mode: keyset-id, limit: 2 }', records, 'large-data.keyset.id', [ignoresFilter]);
    expect(keysetId.seen.at(-1)?.exchanges).toHaveLength(3); // initial, page 1, gt(a02) answered as page 1: the next URL repeats, so stop
    await walk('{ path: /v2/accounts, mode: offset, limit: 1, max_pages: 3 }', records, 'large-data.keyset.id');
    expect(keysetId.seen.at(-1)?.exchanges).toHaveLength(4);
  });
});
