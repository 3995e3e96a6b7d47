/** The offset limits of §8, and offset paging over a list that changes (§4.3's reason for the keyset pattern). */
import { describe, isGet, isHardOffsetPath, isPaginatedPath, OFFSET_LIMIT, pathOf, requestedOffset } from '../../rules/inspect.js';
import { fail, pass, type ClientRule, answering } from './rule.js';
import type { Exchange } from '../../port.js';

/** The offset a paginated GET asks, when it asks one above 0. */
function askedOffset(ex: Exchange): { readonly path: string; readonly offset: number } | undefined {
  if (!isGet(ex)) return undefined;
  const path = pathOf(ex.request.url);
  const offset = requestedOffset(ex.request.url);
  return offset === undefined || offset === 0 || !isPaginatedPath(path) ? undefined : { path, offset };
}

export const hardLimit: ClientRule = answering(
  {
    id: 'client.offset.hard-limit',
    family: 'client',
    section: '§8',
    level: 'documented',
    quote: 'Offset limit for /v2/orders and /v2/files: Hard limit of 10,000 records.',
    statement: 'a client does not page /v2/orders or /v2/files past offset 10,000: it walks them with sort and filter (§4.3).',
    evidence: 'a GET of /v2/orders or /v2/files with page[offset] above 10,000.',
  },
  {
    request: ({ ex }) => {
      const asked = askedOffset(ex);
      if (asked === undefined || !isHardOffsetPath(asked.path)) return undefined;
      return asked.offset > OFFSET_LIMIT ? fail(`${describe(ex)}: offset ${asked.offset} on ${asked.path}`, `at most ${OFFSET_LIMIT}; sort and filter beyond`, asked.offset) : pass;
    },
  },
);

export const softLimit: ClientRule = answering(
  {
    id: 'client.offset.soft-limit',
    family: 'client',
    section: '§8, §4.3 (a warning)',
    level: 'assumed',
    statement:
      'a client paging other endpoints past offset 10,000 meets the soft limit ("Large page[offset] values are slower ... the sort-and-filter pattern of 4.3 is the alternative"): a warning, not a failure.',
    evidence: 'a GET of another paginated path with page[offset] above 10,000.',
  },
  {
    request: ({ ex }) => {
      const asked = askedOffset(ex);
      if (asked === undefined || isHardOffsetPath(asked.path)) return undefined;
      return asked.offset > OFFSET_LIMIT ? fail(`${describe(ex)}: offset ${asked.offset} past the soft limit`, `at most ${OFFSET_LIMIT}, or the sort-and-filter pattern of §4.3`, asked.offset) : pass;
    },
  },
);

export const changingData: ClientRule = answering(
  {
    id: 'client.offset.changing-data',
    family: 'client',
    section: '§4.3, §8 (a warning)',
    level: 'assumed',
    statement: 'an offset walk whose list changes between its pages (results.total moves, or the client writes to it meanwhile) repeats or skips records: the keyset pattern of §4.3 does not.',
    evidence: 'two pages of one offset walk with results.total different, or a write of the client to that collection between them.',
  },
  {
    next: ({ ex, step, prev, page, wroteBetween }) => {
      if (step !== 'offset') return undefined;
      if (wroteBetween) return fail(`${describe(ex)}: the client wrote to this list between two pages of an offset walk`, 'an unchanging list, or a keyset walk', 'a write between pages');
      if (prev.resultsTotal !== undefined && page.resultsTotal !== undefined && prev.resultsTotal !== page.resultsTotal) {
        return fail(
          `${describe(ex)}: results.total moved from ${prev.resultsTotal} to ${page.resultsTotal} during an offset walk`,
          'an unchanging list, or a keyset walk',
          `${prev.resultsTotal} → ${page.resultsTotal}`,
        );
      }
      return pass;
    },
  },
);
