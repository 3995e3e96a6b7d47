/** The settings endpoint (docs/api-notes.md, "Settings"; commerce-api.md §8 names it). */
import { at, describe, expectError, isAsideStatus, isSettingsPath, judgeEach, methodIs, pathOf, requestJson, sentWithoutAuth } from './inspect.js';
import { fail, pass, skip, type Rule } from './rule.js';
import { MAX_PAGE_LENGTH } from '../limits.js';

const pageLength: Rule = {
  id: 'settings.page-length',
  family: 'settings',
  section: 'API-NOTES "Settings" (§8 names the endpoint)',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['settings'] },
  statement: 'PUT /v2/settings page_length 1..100 answers 200 with the value; outside that range 400.',
  check: (ctx) =>
    // judges: every PUT /v2/settings with a numeric data.page_length: integer 1..100 → 200 with data.page_length echoed; other numbers → 400 + error array
    judgeEach(ctx.exchanges, 'no PUT /v2/settings with a numeric page_length', (ex) => {
      const n = at(requestJson(ex), 'data', 'page_length');
      if (!methodIs(ex, 'PUT') || !isSettingsPath(pathOf(ex.request.url)) || typeof n !== 'number' || sentWithoutAuth(ex) || isAsideStatus(ex.response.status)) {
        return skip('not a settings write with a numeric page_length');
      }
      if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_LENGTH) return expectError(ex, 400, `page_length ${n}`);
      if (ex.response.status !== 200) return fail(`${describe(ex)}: page_length ${n} answered ${ex.response.status}`, 200, ex.response.status);
      const echoed = at(ex.json, 'data', 'page_length') ?? at(ex.json, 'page_length');
      return echoed === n ? pass : fail(`${describe(ex)}: page_length in the answer`, n, echoed);
    }),
};

export const settingsRules: readonly Rule[] = [pageLength];
