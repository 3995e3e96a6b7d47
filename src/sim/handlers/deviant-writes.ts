/**
 * The write-path deviations of commerce-api.md §4.3 (account and password-profile updates and
 * deletes), shared by both resources. Only used under `--deviate`.
 */
import type { Collection } from '../../store/collection.js';
import type { RequestContext } from '../context.js';

/**
 * `large-data.updates-during-traversal`: the updated record's updated_at is moved to the epoch, behind
 * any walk's position, so a record not yet seen when it is updated is never listed by the walk.
 */
export const UPDATE_LOST_MS = 0;

/**
 * `large-data.deletes-invisible`: the delete leaves the record listed with updated_at moved to now, so
 * an updated_at read shows the delete as a change.
 */
export function visibleDelete(ctx: RequestContext, coll: Collection, id: string): void {
  const record = coll.get(id);
  if (record === undefined) return;
  const now = ctx.project.clock.tick();
  coll.update(record, (r) => {
    r.updatedMs = now;
  });
}
