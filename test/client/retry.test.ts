/** Retries on 429/5xx honouring Retry-After (seconds and HTTP date), seeded backoff, and a bounded budget. */
import { describe, expect, it } from 'vitest';
import { ClientError, createRequester } from '../../src/client/retry.js';
import { iterate } from '../../src/client/keyset.js';
import { TargetError, type Target, type TargetResponse } from '../../src/port.js';

type Scripted = TargetResponse | TargetError;

/** A target answering from a script, then `ok` forever; records the URLs asked. */
function scripted(script: readonly Scripted[]): Target & { urls: string[] } {
  const queue = [...script];
  const urls: string[] = [];
  return {
    kind: 'http',
    baseUrl: 'http://example.test',
    vars: {},
    urls,
    send(request) {
      urls.push(request.url);
      const next = queue.shift() ?? ok;
      return next instanceof TargetError ? Promise.reject(next) : Promise.resolve(next);
    },
    close: () => Promise.resolve(),
  };
}

const ok: TargetResponse = { status: 200, headers: {}, body: '{"data":[]}' };
const status = (s: number, headers: Record<string, string> = {}): TargetResponse => ({ status: s, headers, body: '{"errors":[{"status":429,"title":"Too Many Requests"}]}' });

function sleeps() {
  const asked: number[] = [];
  return { asked, sleep: (ms: number) => (asked.push(ms), Promise.resolve()) };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ClientError) return error.code;
    throw error;
  }
  return 'no error';
}

describe('retries', () => {
  it('waits exactly Retry-After seconds after a 429, then answers the retried response', async () => {
    const target = scripted([status(429, { 'retry-after': '3' }), ok]);
    const { asked, sleep } = sleeps();
    const requester = createRequester(target, { sleep });
    expect((await requester.get('/v2/accounts')).status).toBe(200);
    expect(asked).toEqual([3000]);
    expect(requester.stats).toEqual({ requests: 2, retries: 1, throttled: 1, waitedMs: 3000 });
  });

  it('reads an HTTP-date Retry-After against the injected clock', async () => {
    const now = Date.UTC(2025, 0, 1, 12, 0, 0);
    const target = scripted([status(503, { 'retry-after': new Date(now + 7000).toUTCString() }), ok]);
    const { asked, sleep } = sleeps();
    await createRequester(target, { sleep, now: () => now }).get('/x');
    expect(asked).toEqual([7000]);
  });

  it('an HTTP date in the past means retry at once', async () => {
    const now = Date.UTC(2025, 0, 1);
    const { asked, sleep } = sleeps();
    await createRequester(scripted([status(429, { 'retry-after': new Date(now - 60_000).toUTCString() }), ok]), { sleep, now: () => now }).get('/x');
    expect(asked).toEqual([0]);
  });

  it('without Retry-After, backs off exponentially with seeded jitter: the same seed waits the same', async () => {
    const run = async (seed: number) => {
      const { asked, sleep } = sleeps();
      await createRequester(scripted([status(500), status(502), status(503), ok]), { sleep, seed, baseDelayMs: 100 }).get('/x');
      return asked;
    };
    const a = await run(1);
    expect(a).toHaveLength(3);
    a.forEach((ms, attempt) => {
      expect(ms).toBeGreaterThanOrEqual((100 * 2 ** attempt) / 2);
      expect(ms).toBeLessThanOrEqual(100 * 2 ** attempt);
    });
    expect(await run(1)).toEqual(a);
    expect(await run(2)).not.toEqual(a);
  });

  it('retries a target that could not be reached, not one that refused the credentials', async () => {
    const { sleep } = sleeps();
    const reached = createRequester(scripted([new TargetError('TARGET_UNREACHABLE', 'down'), ok]), { sleep });
    expect((await reached.get('/x')).status).toBe(200);
    const refused = createRequester(scripted([new TargetError('TARGET_AUTH_FAILED', 'no')]), { sleep });
    await expect(refused.get('/x')).rejects.toMatchObject({ code: 'TARGET_AUTH_FAILED' });
  });

  it('gives up after the retries with CLIENT_RETRIES_EXHAUSTED and the last status', async () => {
    const { sleep } = sleeps();
    const target = scripted([status(429), status(429), status(429)]);
    const error = await createRequester(target, { sleep, retries: 2 })
      .get('/x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: 'CLIENT_RETRIES_EXHAUSTED', status: 429 });
    expect(target.urls).toHaveLength(3);
  });

  it('refuses to wait longer than maxRetryAfterMs', async () => {
    const { asked, sleep } = sleeps();
    const target = scripted([status(429, { 'retry-after': '3600' })]);
    expect(await codeOf(createRequester(target, { sleep, maxRetryAfterMs: 60_000 }).get('/x'))).toBe('CLIENT_RETRY_AFTER_TOO_LONG');
    expect(asked).toEqual([]);
  });

  it('does not retry other 4xx answers: the iterator reports CLIENT_HTTP_STATUS with the error title', async () => {
    const target = scripted([{ status: 400, headers: {}, body: '{"errors":[{"status":400,"title":"Bad Request","detail":"Could not parse the supplied filter"}]}' }]);
    const reader = iterate(target, '/v2/accounts', { attribute: 'id', sleep: sleeps().sleep });
    const error = await reader[Symbol.asyncIterator]()
      .next()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CLIENT_HTTP_STATUS', status: 400 });
    expect(String(error)).toContain('Could not parse the supplied filter');
    expect(target.urls).toHaveLength(1);
  });
});

describe('the request budget', () => {
  it('counts retries and stops with CLIENT_BUDGET_EXHAUSTED before sending more than the budget', async () => {
    const target = scripted([status(429), status(429), status(429), status(429)]);
    expect(await codeOf(createRequester(target, { sleep: sleeps().sleep, budget: 3 }).get('/x'))).toBe('CLIENT_BUDGET_EXHAUSTED');
    expect(target.urls).toHaveLength(3);
  });

  it('bounds a whole traversal', async () => {
    const page = (id: string): TargetResponse => ({ status: 200, headers: {}, body: JSON.stringify({ data: [{ id }] }) });
    const target = scripted([page('a'), page('b'), page('c'), page('d')]);
    const seen: string[] = [];
    const run = async () => {
      for await (const r of iterate(target, '/v2/accounts', { attribute: 'id', pageSize: 1, budget: 2 })) seen.push(r.id);
    };
    expect(await codeOf(run())).toBe('CLIENT_BUDGET_EXHAUSTED');
    expect(seen).toEqual(['a', 'b']);
    expect(target.urls).toEqual(['/v2/accounts?sort=id&page[limit]=1', '/v2/accounts?sort=id&filter=gt(id,a)&page[limit]=1']);
  });
});
