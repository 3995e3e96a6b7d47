/** Hand-made exchanges and a table-driven runner for the oracle checks. */
import { describe, expect, it } from 'vitest';
import { toExchange, type Exchange } from '../../src/port.js';
import type { CheckContext, Outcome, Rule } from '../../src/rules/rule.js';

export interface ExOptions {
  readonly reqBody?: unknown;
  readonly auth?: 'default' | 'none';
  readonly headers?: Readonly<Record<string, string>>;
  readonly resHeaders?: Readonly<Record<string, string>>;
}

/** One exchange; `body` is JSON-serialised unless it is a string (sent raw), undefined is an empty body. */
export function ex(method: string, url: string, status: number, body?: unknown, opts: ExOptions = {}): Exchange {
  const reqBody = opts.reqBody === undefined ? undefined : typeof opts.reqBody === 'string' ? opts.reqBody : JSON.stringify(opts.reqBody);
  return toExchange(
    {
      method,
      url,
      ...(reqBody === undefined ? {} : { body: reqBody }),
      ...(opts.auth === undefined ? {} : { auth: opts.auth }),
      ...(opts.headers === undefined ? {} : { headers: opts.headers }),
    },
    { status, headers: opts.resHeaders ?? {}, body: body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body) },
  );
}

export const ctx = (exchanges: readonly Exchange[], vars: Readonly<Record<string, unknown>> = {}): CheckContext => ({ exchanges, vars });

export const BASE = 'http://127.0.0.1:4747';
export const REALM = 'realm-1';
export const UAI = 'uai-1';
export const PROFILE = 'pp-1';
export const CREATE_PATH = `/v2/authentication-realms/${REALM}/user-authentication-info/${UAI}/user-authentication-password-profile-info`;
export const VARS = { base_url: BASE, realm_id: REALM, user_authentication_info_id: UAI, password_profile_id: PROFILE };

/** A UUID-shaped id from a small number, ordered like the number. */
export const uuid = (n: number): string => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

export const ts = (second: number, ms = 0): string => new Date(Date.UTC(2024, 0, 1, 0, 0, second, ms)).toISOString();

export interface AccountOptions {
  readonly name?: string;
  readonly created?: string;
  readonly updated?: string;
  readonly self?: string;
}

export function account(n: number, o: AccountOptions = {}): Record<string, unknown> {
  const created = o.created ?? ts(n);
  return {
    id: uuid(n),
    type: 'account',
    name: o.name ?? `Account ${String(n).padStart(3, '0')}`,
    legal_name: `Legal ${n}`,
    registration_id: `reg-${n}`,
    external_ref: null,
    meta: { timestamps: { created_at: created, updated_at: o.updated ?? created } },
    links: { self: o.self ?? `${BASE}/v2/accounts/${uuid(n)}` },
  };
}

/** A list body tests may edit (a member set to undefined disappears from the JSON). */
export interface ListBodyShape {
  data: unknown[];
  meta:
    | {
        page: { limit: number | undefined; offset: number | undefined; current: number | undefined; total: number | undefined } | undefined;
        results: { total: number | undefined; total_method?: string };
      }
    | undefined;
  links: Record<string, string | null | undefined> | undefined;
}

/** A conforming list body for `records` at (offset, limit) out of `total`, links built on `path` and `query`. */
export function listBody(records: readonly unknown[], p: { limit: number; offset: number; total: number; path?: string; query?: string }): ListBodyShape {
  const path = p.path ?? '/v2/accounts';
  const link = (offset: number): string => `${BASE}${path}?${p.query === undefined ? '' : `${p.query}&`}page[limit]=${p.limit}&page[offset]=${offset}`;
  const pages = Math.ceil(p.total / p.limit);
  const lastOffset = Math.max(0, (pages - 1) * p.limit);
  return {
    data: [...records],
    meta: {
      page: { limit: p.limit, offset: p.offset, current: Math.floor(p.offset / p.limit) + 1, total: pages },
      results: { total: p.total },
    },
    links: {
      current: link(p.offset),
      first: link(0),
      last: pages > 1 ? link(lastOffset) : null,
      next: p.offset + p.limit < p.total ? link(p.offset + p.limit) : null,
      prev: p.offset > 0 ? link(Math.max(0, p.offset - p.limit)) : null,
    },
  };
}

/** `count` accounts numbered from `from`. */
export const accounts = (from: number, count: number, o: (n: number) => AccountOptions = () => ({})): Record<string, unknown>[] =>
  Array.from({ length: count }, (_, i) => account(from + i, o(from + i)));

/** A list GET answering a conforming page of `all` at (offset, limit). */
export function listGet(
  all: readonly unknown[],
  q: { limit?: number; offset?: number; query?: string; path?: string; defaultLimit?: number; status?: number; url?: string },
  edit: (body: ListBodyShape) => void = () => {},
): Exchange {
  const limit = q.limit ?? q.defaultLimit ?? 25;
  const offset = q.offset ?? 0;
  const path = q.path ?? '/v2/accounts';
  const params = [q.query, q.limit === undefined ? undefined : `page[limit]=${q.limit}`, q.offset === undefined ? undefined : `page[offset]=${q.offset}`].filter((s) => s !== undefined);
  const url = params.length === 0 ? path : `${path}?${params.join('&')}`;
  const body = listBody(all.slice(offset, offset + limit), { limit, offset, total: all.length, path, ...(q.query === undefined ? {} : { query: q.query }) });
  edit(body);
  return ex('GET', q.url ?? url, q.status ?? 200, body);
}

export interface RuleCases {
  readonly pass: readonly CheckContext[];
  readonly fail: readonly CheckContext[];
  readonly skip: readonly CheckContext[];
}

function secretsOf(c: CheckContext): string[] {
  const out: string[] = [];
  for (const e of c.exchanges) {
    const pw = /"password"\s*:\s*"([^"]{3,})"/.exec(e.request.body ?? '')?.[1];
    if (pw !== undefined) out.push(pw);
    for (const [k, v] of Object.entries(e.request.headers ?? {})) if (k.toLowerCase() === 'authorization') out.push(v);
  }
  return out;
}

const show = (o: Outcome): string => JSON.stringify(o);

/**
 * One suite per family: every rule of the family has at least one passing, one failing and one skipped
 * case; each case gives its outcome; failures never carry a password or an Authorization header.
 */
export function runFamily(name: string, rules: readonly Rule[], cases: Readonly<Record<string, RuleCases>>): void {
  describe(`${name} rules`, () => {
    it('has cases for every rule of the family, and none for others', () => {
      expect(Object.keys(cases).sort()).toEqual(rules.map((r) => r.id).sort());
      for (const [id, c] of Object.entries(cases)) {
        expect(c.pass.length, `${id} pass cases`).toBeGreaterThan(0);
        expect(c.fail.length, `${id} fail cases`).toBeGreaterThan(0);
        expect(c.skip.length, `${id} skip cases`).toBeGreaterThan(0);
      }
    });
    for (const rule of rules) {
      const c = cases[rule.id];
      if (c === undefined) continue;
      for (const kind of ['pass', 'fail', 'skip'] as const) {
        c[kind].forEach((context, i) => {
          it(`${rule.id} ${kind} #${i + 1}`, () => {
            const outcome = rule.check(context);
            if (process.env['SHOW_OUTCOMES'] !== undefined) console.log(`${rule.id} ${kind} #${i + 1}: ${show(outcome)}`);
            expect(outcome.status, show(outcome)).toBe(kind);
            if (outcome.status === 'fail') {
              const text = show(outcome);
              for (const secret of secretsOf(context)) expect(text.includes(secret), `failure leaks a secret: ${text}`).toBe(false);
              expect(outcome.message.length).toBeGreaterThan(0);
            }
          });
        });
      }
    }
  });
}
