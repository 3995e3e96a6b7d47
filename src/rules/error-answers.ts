/** The error format and the absence of server errors (docs/api-notes.md, "Errors"). All assumed. */
import { describe, errorBodyProblem, judgeEach, methodIs, pathOf } from './inspect.js';
import { fail, pass, skip, type Rule } from './rule.js';

const format: Rule = {
  id: 'errors.format',
  family: 'errors',
  section: 'API-NOTES "Errors"',
  level: 'assumed',
  onTraffic: { scope: 'exchange' },
  statement: 'every 4xx answer is JSON {errors:[{status, title, ...}]} with status the HTTP status as number or numeric string.',
  check: (ctx) =>
    // judges: every 4xx answer (HEAD and the simulator's /__sim/ admin API aside): {errors:[{status,title}]}, status the HTTP status as number or numeric string
    judgeEach(ctx.exchanges, 'no 4xx answer', (ex) => {
      const status = ex.response.status;
      if (status < 400 || status >= 500 || methodIs(ex, 'HEAD') || pathOf(ex.request.url).startsWith('/__sim/')) return skip('not a 4xx of the API');
      const problem = errorBodyProblem(ex.json, status);
      return problem === undefined ? pass : fail(`${describe(ex)} (${status}): error body has ${problem}`, `{"errors":[{"status":${status},"title":...}]}`, problem);
    }),
};

const no5xx: Rule = {
  id: 'errors.no-5xx',
  family: 'errors',
  section: 'API-NOTES "Errors"',
  level: 'assumed',
  onTraffic: { scope: 'exchange' },
  statement: 'bad input (unknown routes 404, wrong methods 405, bodies over 1 MiB 413, junk) never answers 5xx.',
  check: (ctx) => {
    // judges: every exchange in ctx: no 5xx status
    if (ctx.exchanges.length === 0) return skip('no exchange');
    const bad = ctx.exchanges.find((ex) => ex.response.status >= 500);
    return bad === undefined ? pass : fail(`${describe(bad)} answered ${bad.response.status}`, 'below 500', bad.response.status);
  },
};

export const errorRules: readonly Rule[] = [format, no5xx];
