/** Rate limiting (API-NOTES "Errors": 429, clients retry) as a client honours it. */
import { describe } from '../../rules/inspect.js';
import { fail, pass, type ClientRule } from './rule.js';

/** Requests whose 429 a client's rule remembers at once; past it, they are forgotten (memory stays bounded). */
const MAX_WAITS = 256;

/** Seconds (or an HTTP date) of a Retry-After header, as milliseconds after `at`. */
export function retryUntil(value: string | undefined, at: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return at + Number(v) * 1000;
  const d = Date.parse(v);
  return Number.isNaN(d) ? undefined : d;
}

/**
 * Its state is the client's: each request a 429 asked it to wait on, until when. The same request sent
 * again is judged against that time, once; a 429 on it then asks anew.
 */
export const retryAfter: ClientRule = {
  meta: {
    id: 'client.retry.retry-after',
    family: 'client',
    section: 'API-NOTES "Errors"',
    level: 'assumed',
    statement: 'after a 429, the client waits at least Retry-After before sending the same request again.',
    evidence: 'a 429 with Retry-After, then the same method and URL from the same client sent before that time.',
  },
  create: (context) => {
    const waits = new Map<string, number>();
    return {
      request: ({ ex, sentAt }) => {
        if (sentAt === undefined) return;
        const request = `${ex.request.method} ${ex.request.url}`;
        const waitUntil = waits.get(request);
        if (waitUntil !== undefined) {
          waits.delete(request);
          context.report(
            sentAt >= waitUntil
              ? pass
              : fail(
                  `${describe(ex)}: sent again ${Math.max(0, Math.round((waitUntil - sentAt) / 10) / 100)} s before Retry-After allowed`,
                  `not before ${new Date(waitUntil).toISOString()}`,
                  new Date(sentAt).toISOString(),
                ),
          );
        }
        if (ex.response.status !== 429) return;
        const until = retryUntil(ex.response.headers['retry-after'], sentAt);
        if (until === undefined) return;
        if (waits.size >= MAX_WAITS) waits.clear();
        waits.set(request, until);
      },
    };
  },
};
