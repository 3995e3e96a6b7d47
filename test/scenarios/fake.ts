/** Test doubles for the runner: a tiny list endpoint over fixed records, and rules that record what they saw. */
import { pass, type CheckContext, type Rule } from '../../src/rules/rule.js';
import type { Target, TargetRequest, TargetResponse } from '../../src/port.js';
import type { RuleId } from '../../src/rules/ids.js';

export interface FakeRecord {
  readonly id: string;
  readonly created_at: string;
}

export interface FakeTarget extends Target {
  readonly requests: TargetRequest[];
}

type Handler = (request: TargetRequest, url: URL) => TargetResponse | undefined;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): TargetResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** `GET /v2/accounts` over `records` with sort=id|created_at, filter gt(id,x) / ge(created_at,x), page[limit], page[offset]. */
export function listHandler(records: readonly FakeRecord[]): Handler {
  return (request, url) => {
    if (request.method !== 'GET' || url.pathname !== '/v2/accounts') return undefined;
    const q = url.searchParams;
    const sort = q.get('sort') ?? 'id';
    const key = (r: FakeRecord) => (sort === 'created_at' ? `${r.created_at}|${r.id}` : r.id);
    let rows = [...records].sort((a, b) => (key(a) < key(b) ? -1 : 1));
    const filter = q.get('filter');
    const gt = filter === null ? null : /^gt\(id,(.+)\)$/.exec(filter);
    const ge = filter === null ? null : /^ge\(created_at,(.+)\)$/.exec(filter);
    if (gt?.[1] !== undefined) rows = rows.filter((r) => r.id > (gt[1] ?? ''));
    if (ge?.[1] !== undefined) rows = rows.filter((r) => r.created_at >= (ge[1] ?? ''));
    const limit = Number(q.get('page[limit]') ?? 25);
    const offset = Number(q.get('page[offset]') ?? 0);
    const data = rows.slice(offset, offset + limit).map((r) => ({ id: r.id, type: 'account', meta: { timestamps: { created_at: r.created_at } } }));
    return json(200, {
      data,
      meta: { page: { limit, offset, current: Math.floor(offset / limit) + 1, total: Math.ceil(rows.length / limit) }, results: { total: rows.length } },
    });
  };
}

export function fakeTarget(options: { kind?: 'sim' | 'http'; vars?: Record<string, string>; handlers: readonly Handler[] }): FakeTarget {
  const requests: TargetRequest[] = [];
  return {
    kind: options.kind ?? 'sim',
    baseUrl: 'http://fake.test',
    vars: options.vars ?? {},
    requests,
    send(request) {
      requests.push(request);
      const url = new URL(request.url, 'http://fake.test');
      for (const h of options.handlers) {
        const res = h(request, url);
        if (res !== undefined) return Promise.resolve(res);
      }
      return Promise.resolve(json(404, { errors: [{ status: 404, title: 'Not Found' }] }));
    },
    close: () => Promise.resolve(),
  };
}

/** A rule whose check records each context it is given and judges with `judge` (pass by default). */
export function spyRule(id: string, judge: (ctx: CheckContext) => ReturnType<Rule['check']> = () => pass): Rule & { seen: CheckContext[] } {
  const seen: CheckContext[] = [];
  return {
    id: id as RuleId,
    family: 'pagination',
    section: '§0',
    level: 'documented',
    statement: `${id} holds`,
    quote: `${id} holds`,
    onTraffic: { scope: 'exchange' },
    seen,
    check(ctx) {
      seen.push(ctx);
      return judge(ctx);
    },
  };
}

export function rulesOf(...rules: Rule[]): { ruleById: (id: string) => Rule | undefined; ruleExists: (id: string) => boolean } {
  const map = new Map<string, Rule>(rules.map((r) => [r.id, r]));
  return { ruleById: (id) => map.get(id), ruleExists: (id) => map.has(id) };
}
