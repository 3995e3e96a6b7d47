/** Rate limiting (API-NOTES "Errors": 429, clients retry) as a client honours it. */
import { describe } from '../../rules/inspect.js';
import { fail, pass, type ClientRule } from './rule.js';

/** Seconds (or an HTTP date) of a Retry-After header, as milliseconds after `at`. */
export function retryUntil(value: string | undefined, at: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return at + Number(v) * 1000;
  const d = Date.parse(v);
  return Number.isNaN(d) ? undefined : d;
}

export const retryAfter: ClientRule = {
  id: 'client.retry.retry-after',
  family: 'client',
  section: 'API-NOTES "Errors"',
  level: 'assumed',
  statement: 'after a 429, the client waits at least Retry-After before sending the same request again.',
  evidence: 'a 429 with Retry-After, then the same method and URL from the same client sent before that time.',
  onRequest: ({ ex, sentAt, waitUntil }) => {
    if (waitUntil === undefined || sentAt === undefined) return undefined;
    return sentAt >= waitUntil
      ? pass
      : fail(
          `${describe(ex)}: sent again ${Math.max(0, Math.round((waitUntil - sentAt) / 10) / 100)} s before Retry-After allowed`,
          `not before ${new Date(waitUntil).toISOString()}`,
          new Date(sentAt).toISOString(),
        );
  },
};
