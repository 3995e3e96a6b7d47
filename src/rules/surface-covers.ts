/**
 * Assumed rules that cover parts of the public API the document does not state (rules/surface.ts names
 * them as `coveredBy`): sorting and filtering by other attributes or on other list paths, and account
 * writes. When a documented rule cannot be judged because a request used such a part, the observation
 * lands here, and these checks judge such requests directly.
 */
import { describe, isGet, judgeEach } from './inspect.js';
import { asString, at } from './inspect-json.js';
import { pathOf, queryParam } from './inspect-wire.js';
import { classifyRequest } from './surface.js';
import { fail, pass, skip, type Outcome, type Rule } from './rule.js';
import type { Exchange } from '../port.js';

/** The request used `part` beyond the document (by the classifier's reading). */
const uses = (ex: Exchange, rule: 'sort.attributes' | 'filter.attributes'): boolean => classifyRequest(ex.request).gaps.some((g) => g.coveredBy === rule);

function answered(ex: Exchange, what: string): Outcome {
  if (ex.response.status === 429 || ex.response.status === 401 || ex.response.status === 403) return skip('not judged: credentials or rate');
  return ex.response.status === 200 ? pass : fail(`${describe(ex)}: ${what} refused`, 200, ex.response.status);
}

const sortAttributes: Rule = {
  id: 'sort.attributes',
  family: 'sort-filter',
  section: 'API-NOTES "Accounts"',
  level: 'assumed',
  onTraffic: { scope: 'scripted' },
  statement: 'sort accepts the other attributes the public API lists (accounts: name), and sort works on the other list endpoints.',
  check: (ctx) =>
    // judges: every GET whose sort is outside the document's (another attribute or path): answers 200
    judgeEach(ctx.exchanges, 'no sort by another attribute', (ex) =>
      isGet(ex) && uses(ex, 'sort.attributes') ? answered(ex, `sort=${queryParam(ex.request.url, 'sort') ?? ''}`) : skip('not such a sort'),
    ),
};

const filterAttributes: Rule = {
  id: 'filter.attributes',
  family: 'sort-filter',
  section: 'API-NOTES "Accounts"',
  level: 'assumed',
  onTraffic: { scope: 'scripted' },
  statement: 'filters accept the other attributes the public API lists (accounts: name, legal_name, registration_id, external_ref), and filters work on the other list endpoints.',
  check: (ctx) =>
    // judges: every GET filtering on another attribute or path: answers 200
    judgeEach(ctx.exchanges, 'no filter on another attribute', (ex) =>
      isGet(ex) && uses(ex, 'filter.attributes') ? answered(ex, `filter=${queryParam(ex.request.url, 'filter') ?? ''}`) : skip('not such a filter'),
    ),
};

const ACCOUNT = /^\/v2\/accounts(?:\/([^/]+))?\/?$/;

const accountsWrites: Rule = {
  id: 'accounts.writes',
  family: 'large-data',
  section: 'API-NOTES "Accounts"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['write'] },
  statement: 'POST /v2/accounts creates an account (201 with data.id), PUT /v2/accounts/{id} updates it (200), DELETE removes it (204).',
  check: (ctx) =>
    // judges: every POST /v2/accounts, PUT and DELETE /v2/accounts/{id}: 201 with data.id, 200, 204
    judgeEach(ctx.exchanges, 'no account write', (ex) => {
      const m = ACCOUNT.exec(pathOf(ex.request.url));
      const method = ex.request.method.toUpperCase();
      if (m === null || method === 'GET') return skip('not an account write');
      const status = ex.response.status;
      if (method === 'POST' && m[1] === undefined)
        return status === 201 && asString(at(ex.json, 'data', 'id')) !== undefined ? pass : fail(`${describe(ex)}: account create`, '201 with data.id', status);
      if (method === 'PUT' && m[1] !== undefined) return status === 200 ? pass : fail(`${describe(ex)}: account update`, 200, status);
      if (method === 'DELETE' && m[1] !== undefined) return status === 204 ? pass : fail(`${describe(ex)}: account delete`, 204, status);
      return skip('not an account write of the public API');
    }),
};

export const surfaceCoverRules = { sortAttributes, filterAttributes, accountsWrites } as const;
