/**
 * The client family: how a client uses the large-data pattern (commerce-api.md §4.3) and the limits of
 * §8. These judge the *client's* conduct in observed traffic, never a server; no simulator deviation
 * breaks them. A documented one quotes the sentence it rests on; an assumed one is where the document is
 * silent and the choice is ours (it fails a run only under --strict). The judging is in
 * src/traffic/conduct.ts, which sees each walk's pages in order.
 */
import type { Level } from '../../rules/rule.js';

export const CLIENT_RULE_IDS = [
  'client.keyset.timestamp-ge',
  'client.keyset.shared-timestamp',
  'client.keyset.sort-matches-filter',
  'client.keyset.id-stop',
  'client.limit.clamped',
  'client.offset.hard-limit',
  'client.sync.buffer',
  'client.offset.soft-limit',
  'client.offset.changing-data',
  'client.retry.retry-after',
] as const;

export type ClientRuleId = (typeof CLIENT_RULE_IDS)[number];

export interface ClientRule {
  readonly id: ClientRuleId;
  readonly family: 'client';
  readonly section: string;
  readonly level: Level;
  /** Documented rules: the document's own words. */
  readonly quote?: string;
  /** One line: what a client does. */
  readonly statement: string;
}

const documented = (id: ClientRuleId, section: string, quote: string, statement: string): ClientRule => ({ id, family: 'client', section, level: 'documented', quote, statement });
const assumed = (id: ClientRuleId, section: string, statement: string): ClientRule => ({ id, family: 'client', section, level: 'assumed', statement });

export const clientRules: readonly ClientRule[] = [
  documented(
    'client.keyset.timestamp-ge',
    '§4.3',
    'For each next page, add a filter that the attribute is greater than or equal to (or, for unique id, greater than) the last value of the previous page.',
    'a walk on a timestamp continues with ge(attr,<last value>), not gt: gt loses the records that share the boundary timestamp (gt is fine once a read of that timestamp alone, eq(attr,<value>), has been paged to its end).',
  ),
  documented(
    'client.keyset.shared-timestamp',
    '§4.3',
    'With timestamps, a page may need further paging if many records share the same timestamp. This is the case when the first and last timestamps of a page are identical.',
    'after a full page whose first and last timestamps are equal, the next request can return the rest of that run: the same ge filter further on by page[offset], or a read of that timestamp alone (eq); not gt past it, a later value, the same page again, or stopping.',
  ),
  documented(
    'client.keyset.sort-matches-filter',
    '§4.3',
    'Request the first page with sort=<attribute>. For each next page, add a filter that the attribute is greater than or equal to (or, for unique id, greater than) the last value of the previous page.',
    'a walk that filters ge/gt on the last value of an attribute also sorts by that attribute (ascending): otherwise the pages are in another order and the filter skips records.',
  ),
  documented('client.keyset.id-stop', '§4.3', 'For id-sorted reads, stop when a page returns zero records.', 'an id walk (sort=id, gt(id,<last>)) ends only after a page of zero records.'),
  documented(
    'client.limit.clamped',
    '§8',
    'Maximum page length | 100 on any paginated call.',
    'a client asking page[limit] above 100 does not treat the answer as all there is: when results.total says more records remain, it reads further.',
  ),
  documented(
    'client.offset.hard-limit',
    '§8',
    'Offset limit for /v2/orders and /v2/files: Hard limit of 10,000 records.',
    'a client does not page /v2/orders or /v2/files past offset 10,000: it walks them with sort and filter (§4.3).',
  ),
  documented(
    'client.sync.buffer',
    '§4.3',
    'Because of eventual consistency, timestamps close to the present may be incomplete; use a buffer when building a complete list.',
    'a timestamp walk that reads to its end bounds itself below the present (le/lt on the attribute, before the answer\u2019s Date): without a buffer the newest records may still be missing.',
  ),
  assumed(
    'client.offset.soft-limit',
    '§8, §4.3 (a warning)',
    'a client paging other endpoints past offset 10,000 meets the soft limit ("Large page[offset] values are slower ... the sort-and-filter pattern of 4.3 is the alternative"): a warning, not a failure.',
  ),
  assumed(
    'client.offset.changing-data',
    '§4.3, §8 (a warning)',
    'an offset walk whose list changes between its pages (results.total moves, or the client writes to it meanwhile) repeats or skips records: the keyset pattern of §4.3 does not.',
  ),
  assumed('client.retry.retry-after', 'API-NOTES "Errors"', 'after a 429, the client waits at least Retry-After before sending the same request again.'),
];

const byId = new Map<string, ClientRule>(clientRules.map((r) => [r.id, r]));

export function clientRuleById(id: string): ClientRule | undefined {
  return byId.get(id);
}
