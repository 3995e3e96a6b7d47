/**
 * Requests that break a client rule on purpose: tests of the server's refusals (the kit's own negative
 * scenarios and properties, a user's negative tests) send a short password or no credentials so that the
 * server can be seen refusing them. Such a request names the rules it breaks in `x-commerce-sim-expect`
 * (the kit's requests do: a scenario request's `breaks:`); traffic that cannot be marked is named by
 * `check`/`proxy --expect RULE` (every finding of that rule). A deliberate finding is counted and listed
 * apart, never a failure; a rule broken by a request that did not name it fails as ever.
 */
import { EXPECT_HEADER } from '../../rules/ids.js';
import type { TrafficEntry } from '../entry.js';

/** The rule ids a request names in `x-commerce-sim-expect` (comma- or space-separated). */
export function declaredBreaks(entry: TrafficEntry): readonly string[] {
  for (const [name, value] of Object.entries(entry.exchange.request.headers ?? {})) {
    if (name.toLowerCase() === EXPECT_HEADER) return value.split(/[\s,]+/).filter((id) => id !== '');
  }
  return [];
}

/** Whether a client finding of `ruleId` resting on `evidence` was asked for: named by one of its requests, or by `--expect`. */
export function isDeliberate(ruleId: string, evidence: readonly TrafficEntry[], expected: ReadonlySet<string>): boolean {
  return expected.has(ruleId) || evidence.some((e) => declaredBreaks(e).includes(ruleId));
}
