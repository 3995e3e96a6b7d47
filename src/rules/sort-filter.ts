/**
 * Sorting (commerce-api.md §4.2; docs/api-notes.md, "Filter and sort grammar", "Accounts"), and the
 * sort-filter family in the order of docs/rule-ids.md (filter checks live in filter-checks.ts).
 */
import type { Exchange } from '../port.js';
import { filterRules } from './filter-checks.js';
import { surfaceCoverRules } from './surface-covers.js';
import { asList, describe, expectError, firstDisorder, isAsideStatus, isListRead, judgeEach, listGets, listQuery, pathOf, readSort, recordAttr, recordId, sameValue } from './inspect.js';
import { fail, pass, skip, type Outcome, type Rule } from './rule.js';

/** The records' values of the sort attribute (records without one left out), with their ids. */
function sortedValues(ex: Exchange, field: string): { value: string; id: string | undefined }[] {
  const out: { value: string; id: string | undefined }[] = [];
  for (const r of asList(ex.json)?.data ?? []) {
    const value = recordAttr(r, field);
    if (typeof value === 'string') out.push({ value, id: recordId(r) });
  }
  return out;
}

function judgeOrder(ex: Exchange, direction: 'asc' | 'desc'): Outcome {
  const sort = readSort(listQuery(ex.request.url).sort);
  if (sort === undefined || sort.direction !== direction) return skip('other sort');
  const values = sortedValues(ex, sort.field).map((v) => v.value);
  if (values.length < 2) return skip('fewer than two values');
  const at = firstDisorder(sort.field, values, direction);
  if (at === undefined) return pass;
  return fail(`${describe(ex)}: records ${at} and ${at + 1} out of ${direction === 'asc' ? 'ascending' : 'descending'} ${sort.field} order`, `${direction} order`, values.slice(at - 1, at + 1));
}

const ascending: Rule = {
  id: 'sort.ascending',
  family: 'sort-filter',
  section: '§4.2',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  quote: 'sort=<attribute>: Sorts by the attribute; common choices are created_at, updated_at, id.',
  statement: 'sort=attr returns records in ascending order of attr.',
  check: (ctx) =>
    // judges: every list GET answering 200 with sort=attr: the records' attr values ascend (timestamps by instant; text under any common collation)
    judgeEach(listGets(ctx), 'no ascending sorted read with two records', (ex) => judgeOrder(ex, 'asc')),
};

const descending: Rule = {
  id: 'sort.descending',
  family: 'sort-filter',
  section: 'API-NOTES "Filter and sort grammar"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: 'sort=-attr returns descending order.',
  check: (ctx) =>
    // judges: every list GET answering 200 with sort=-attr: the records' attr values descend
    judgeEach(listGets(ctx), 'no descending sorted read with two records', (ex) => judgeOrder(ex, 'desc')),
};

const tiesById: Rule = {
  id: 'sort.ties-by-id',
  family: 'sort-filter',
  section: 'API-NOTES "Accounts"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: 'records with equal sort values are ordered by id.',
  check: (ctx) =>
    // judges: every list GET answering 200 with sort on an attribute other than id: neighbours with equal values ascend by id (sort=-attr: ids one way throughout)
    judgeEach(listGets(ctx), 'no sorted read with equal neighbouring values', (ex) => {
      const sort = readSort(listQuery(ex.request.url).sort);
      if (sort === undefined || sort.field === 'id') return skip('no sort on a non-id attribute');
      const values = sortedValues(ex, sort.field);
      const directions = new Set<'up' | 'down'>();
      for (let i = 1; i < values.length; i++) {
        const a = values[i - 1];
        const b = values[i];
        if (a === undefined || b === undefined || a.id === undefined || b.id === undefined || !sameValue(sort.field, a.value, b.value)) continue;
        const dir = a.id < b.id ? 'up' : 'down';
        if (sort.direction === 'asc' && dir === 'down') return fail(`${describe(ex)}: records ${i} and ${i + 1} share ${sort.field} but ids descend`, 'ascending ids', [a.id, b.id]);
        directions.add(dir);
      }
      if (directions.size === 0) return skip('no ties');
      return directions.size === 1 ? pass : fail(`${describe(ex)}: ties ordered by id both ways`, 'one id order', 'ascending and descending');
    }),
};

/** Sort attributes of the resources whose table docs/api-notes.md gives. */
const SORTABLE: readonly { readonly path: RegExp; readonly fields: readonly string[] }[] = [{ path: /^\/v2\/accounts\/?$/, fields: ['created_at', 'id', 'name', 'updated_at'] }];

const invalidSort400: Rule = {
  id: 'sort.invalid-400',
  family: 'sort-filter',
  section: '§4.2, §4.3',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: 'an attribute the resource does not sort by answers 400.',
  check: (ctx) =>
    // judges: every GET of /v2/accounts whose sort attribute is not created_at, id, name or updated_at (either direction): 400 + error array
    judgeEach(ctx.exchanges, 'no read sorted by an unsortable attribute', (ex) => {
      const raw = listQuery(ex.request.url).sort;
      const table = SORTABLE.find((s) => s.path.test(pathOf(ex.request.url)));
      if (!isListRead(ex) || raw === undefined || table === undefined || isAsideStatus(ex.response.status)) return skip('not judged');
      const sort = readSort(raw);
      if (sort !== undefined && table.fields.includes(sort.field)) return skip('sortable attribute');
      return expectError(ex, 400, `sort=${raw}`);
    }),
};

export const sortFilterRules: readonly Rule[] = [ascending, descending, surfaceCoverRules.sortAttributes, tiesById, invalidSort400, ...filterRules, surfaceCoverRules.filterAttributes];
