/** Eventual consistency (§4.3) as a syncing client copes with it: a buffer below the present. */
import { describe, instantOf, isTimestampField } from '../../rules/inspect.js';
import { fail, pass, type ClientRule, answering } from './rule.js';

/**
 * The buffer the rule assumes a client keeps: the document gives none. The simulator's eventual-consistency
 * dataset hides new records for up to 10 s; a client that keeps less misses some there.
 */
const ASSUMED_BUFFER_MS = 10_000;

export const buffer: ClientRule = answering(
  {
    id: 'client.sync.buffer',
    family: 'client',
    section: '§4.3 (a warning)',
    level: 'assumed',
    statement: `a timestamp walk read to its end is resumed below the present less a buffer: from no later than its last answer's Date less ${ASSUMED_BUFFER_MS / 1000} s, or from an older newest value.`,
    evidence: `a walk on a timestamp read to its end (a short page), then resumed with gt/ge on the newest value it read, where that value was less than ${ASSUMED_BUFFER_MS / 1000} s before that answer's Date. The document names no buffer, and one kept on the client's side (an older checkpoint, records held back) leaves no other trace: assumed.`,
  },
  {
    next: ({ ex, step, prev, page }) => {
      const c = page.read.cursor;
      if (step !== 'next' || !prev.short || c === undefined || !isTimestampField(c.field)) return undefined;
      const date = Date.parse(prev.date ?? '');
      const at = instantOf(c.value);
      if (Number.isNaN(date) || at === undefined) return undefined;
      const floor = BigInt(date - ASSUMED_BUFFER_MS) * 1_000_000n;
      // "No later than" the Date less the buffer: a resume point exactly there keeps the whole buffer.
      return at <= floor
        ? pass
        : fail(
            `${describe(ex)}: resumes a ${c.field} walk at ${c.value}, the newest value of a read to the end answered at ${prev.date ?? ''}: records that become visible later with an earlier ${c.field} are missed`,
            `a resume point at or before ${new Date(date - ASSUMED_BUFFER_MS).toISOString()}`,
            c.value,
          );
    },
  },
);
