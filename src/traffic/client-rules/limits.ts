/** The page length of §8 as a client copes with it: a page[limit] above 100 is granted at most 100. */
import { describe, MAX_PAGE_LENGTH } from '../../rules/inspect.js';
import type { PageFacts } from '../sessions/pages.js';
import { fail, pass, type ClientRule, answering } from './rule.js';

/** The page size the server granted: its meta.page.limit, else the document's maximum when a full page of it answered a larger ask. */
function granted(page: PageFacts): number | undefined {
  if (page.granted !== undefined) return page.granted;
  const asked = page.read.limit;
  return asked !== undefined && asked > MAX_PAGE_LENGTH && page.count === MAX_PAGE_LENGTH ? MAX_PAGE_LENGTH : undefined;
}

export const clamped: ClientRule = answering(
  {
    id: 'client.limit.clamped',
    family: 'client',
    section: '§8',
    level: 'documented',
    quote: 'Maximum page length | 100 on any paginated call.',
    statement: 'a client paging by page[offset] moves on by the page length it was granted, not by a larger one it asked for.',
    evidence:
      'two pages of one walk: the first asked page[limit]=n and was granted fewer (meta.page.limit, or a full page of 100), the next page[offset] moved on by n, and records lay between the end of the first page and that offset (they are counted as skipped).',
  },
  {
    next: ({ ex, step, prev, page }) => {
      if (step === 'next') return undefined;
      const asked = prev.read.limit;
      const given = granted(prev);
      if (asked === undefined || given === undefined || asked <= given) return undefined;
      const from = prev.read.offset + prev.count;
      if (page.read.offset - prev.read.offset !== asked) return pass;
      const upTo = prev.resultsTotal === undefined ? page.read.offset : Math.min(page.read.offset, prev.resultsTotal);
      const skipped = upTo - from;
      if (skipped <= 0) return pass;
      return fail(
        `${describe(ex)}: asked page[limit]=${asked}, was granted ${given}, and moved page[offset] on by ${asked}: ${skipped} record${skipped === 1 ? '' : 's'} (${from + 1} to ${upTo}) skipped`,
        `page[offset]=${from}`,
        `page[offset]=${page.read.offset}`,
      );
    },
  },
);

export const clampedStop: ClientRule = answering(
  {
    id: 'client.limit.clamped-stop',
    family: 'client',
    section: '§8 (a warning)',
    level: 'assumed',
    statement: 'a client that asked page[limit] above 100 and got fewer records than results.total reads on, unless it meant to read one page.',
    evidence:
      'a single read that asked page[limit] above 100, got fewer records than asked while results.total says more remain, and no further page of it, followed by another request of the client: it suggests the page was taken as the whole list (a UI showing one page does the same), so it is assumed.',
  },
  {
    end: ({ ex, first, last, pages, stopShown }) => {
      const asked = first.read.limit;
      if (asked === undefined || asked <= MAX_PAGE_LENGTH || last.count >= asked) return undefined;
      if (pages > 1) return pass;
      if (!stopShown || last.resultsTotal === undefined) return undefined;
      const seen = last.read.offset + last.count;
      return last.resultsTotal > seen
        ? fail(`${describe(ex)}: asked page[limit]=${asked}, got ${last.count} of ${last.resultsTotal} and read no further`, 'the next page', 'no further request')
        : pass;
    },
  },
);
