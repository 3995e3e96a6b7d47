/** Error answers of the create operation (docs/api-notes.md, "Errors"): 400 for bad bodies, 404 for unknown parents. */
import type { Exchange } from '../port.js';
import { describe, errorDetails, expectError, judgeEach } from './inspect.js';
import { classifyCreateBody, judgeableCreates, parentOf } from './profile-request.js';
import { fail, pass, skip, type Rule } from './rule.js';

/** A 404 when the parent ids are not given in vars may be an unknown parent: not judged as a 400 case. */
const parentAllows400 = (ex: Exchange, vars: Readonly<Record<string, unknown>>): boolean => {
  const parent = parentOf(ex, vars);
  return parent === 'known' || (parent === 'unspecified' && ex.response.status !== 404);
};

const validation400: Rule = {
  id: 'create.errors.validation-400',
  family: 'create',
  section: 'API-NOTES "Errors"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  statement: 'a too-short password, missing or non-string fields, another type, or no `data` answer 400 with the error array.',
  check: (ctx) =>
    // judges: every create POST with credentials whose JSON body is invalid (no data, field missing/non-string, other type, short password): 400 + error array
    judgeEach(judgeableCreates(ctx), 'no invalid create body', (ex) => {
      const body = classifyCreateBody(ex);
      if (body.kind !== 'invalid' || !parentAllows400(ex, ctx.vars)) return skip('not an invalid body');
      return expectError(ex, 400, body.reason);
    }),
};

const malformed400: Rule = {
  id: 'create.errors.malformed-json-400',
  family: 'create',
  section: 'API-NOTES "Errors"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  statement: 'malformed JSON answers 400 with the error array.',
  check: (ctx) =>
    // judges: every create POST with credentials whose non-empty body is not JSON: 400 + error array
    judgeEach(judgeableCreates(ctx), 'no malformed create body', (ex) => {
      if (classifyCreateBody(ex).kind !== 'malformed' || !parentAllows400(ex, ctx.vars)) return skip('not malformed');
      return expectError(ex, 400, 'malformed JSON');
    }),
};

const unknownParent404: Rule = {
  id: 'create.errors.unknown-parent-404',
  family: 'create',
  section: 'API-NOTES "Errors"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  statement: 'an unknown realm or user-authentication-info id answers 404 (detail `Resource not found`).',
  check: (ctx) =>
    // judges: every valid create POST whose realm or uai differs from vars realm_id/user_authentication_info_id: 404 + error array (a detail, if any, says "not found")
    judgeEach(judgeableCreates(ctx), 'no create on an unknown parent (needs vars realm_id and user_authentication_info_id)', (ex) => {
      if (parentOf(ex, ctx.vars) !== 'unknown' || classifyCreateBody(ex).kind !== 'valid') return skip('parent known');
      const outcome = expectError(ex, 404, 'unknown parent');
      if (outcome.status !== 'pass') return outcome;
      const details = errorDetails(ex.json);
      const ok = details.length === 0 || details.some((d) => /not found/i.test(d));
      return ok ? pass : fail(`${describe(ex)}: the 404 detail`, 'Resource not found', details[0]);
    }),
};

export const createErrorRules: readonly Rule[] = [validation400, malformed400, unknownParent404];
