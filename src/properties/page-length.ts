/**
 * The project's page length (commerce-api.md §8: "changeable globally per project through a settings
 * endpoint"; docs/api-notes.md "Settings"): for any page_length in 1..100, lists read without page[limit]
 * use it, and page[limit] still wins. Each run puts the setting back as it found it.
 */
import * as fc from 'fast-check';
import { asList, at, pageMeta } from '../rules/inspect.js';
import { SHOWN_LIST_PATHS } from '../rules/surface.js';
import { defineProperty } from './define.js';
import type { Trial } from './trial.js';
import { MAX_PAGE_LENGTH } from '../limits.js';

const PAGE_LENGTH = 'page-length';

export interface PageLengthInput {
  readonly pageLength: number;
  readonly path: string;
  /** A later read with this page[limit], which the setting must not override. */
  readonly perCall: number | undefined;
}

const settingsBody = (n: number): string => JSON.stringify({ data: { type: 'settings', page_length: n } });
// The settings endpoint is not in the document: its requests are preconditions, verified by their 200, never probes.
const put = (trial: Trial, n: number) => trial.precondition({ method: 'PUT', url: '/v2/settings', headers: { 'content-type': 'application/json' }, body: settingsBody(n) });

export const pageLength = defineProperty<undefined, PageLengthInput>({
  name: PAGE_LENGTH,
  summary: 'after PUT /v2/settings page_length n (1..100), lists without page[limit] answer pages of n',
  rules: ['pagination.limit.project-setting', 'pagination.limit.default', 'settings.page-length', 'pagination.limit.per-call', 'pagination.limit.max', 'pagination.meta.present'],
  isolated: true,
  needs: ['writes'],
  prepare: () => Promise.resolve(undefined),
  arbitrary: () =>
    fc.record({
      pageLength: fc.oneof(fc.integer({ min: 1, max: MAX_PAGE_LENGTH }), fc.constantFrom(1, 24, 25, 26, 99, 100)),
      // The list paths the document shows (§4.2): the project-setting verdict rests on documented reads only.
      path: fc.constantFrom(...SHOWN_LIST_PATHS),
      perCall: fc.option(fc.integer({ min: 1, max: MAX_PAGE_LENGTH }), { freq: 3, nil: undefined }),
    }),
  show: (i) => ({ 'PUT /v2/settings page_length': i.pageLength, then: `GET ${i.path}`, ...(i.perCall === undefined ? {} : { and: `GET ${i.path}?page[limit]=${i.perCall}` }) }),
  async run(i, trial) {
    const settings = await trial.precondition({ method: 'GET', url: '/v2/settings' });
    const before = at(settings.json, 'data', 'page_length');
    // What the project uses now: the oracle's pagination.limit.default judges the read below against it.
    if (typeof before === 'number') trial.vars['page_length'] = before;
    await trial.send({ method: 'GET', url: i.path });
    const changed = await put(trial, i.pageLength);
    try {
      if (changed.response.status !== 200) {
        trial.fail('settings.page-length', `PUT /v2/settings page_length ${i.pageLength} answered ${changed.response.status}`, 200, changed.response.status);
        return;
      }
      const read = await trial.send({ method: 'GET', url: i.path });
      if (read.response.status === 200) {
        const limit = pageMeta(read.json).limit;
        const n = asList(read.json)?.data.length ?? 0;
        const ok = limit === i.pageLength && n <= i.pageLength;
        trial.expect(ok, 'pagination.limit.project-setting', `GET ${i.path} after page_length ${i.pageLength}: meta.page.limit ${String(limit)}, ${n} records`, i.pageLength, limit, [read]);
      }
      if (i.perCall !== undefined) await trial.send({ method: 'GET', url: `${i.path}?page[limit]=${i.perCall}` });
    } finally {
      if (typeof before === 'number' && before !== i.pageLength) await put(trial, before);
    }
  },
});
