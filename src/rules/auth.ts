/** Authentication (commerce-api.md §5; docs/api-notes.md, "Errors", "Token endpoint"). */
import { hidesCredential } from '../redacted.js';
import type { Exchange } from '../port.js';
import { asNumber, asString, at, authorizationHeader, describe, errorBodyProblem, is2xx, isCreatePath, judgeEach, methodIs, pathOf, requestJson, sentWithoutAuth, varString } from './inspect.js';
import { fail, pass, skip, type Rule } from './rule.js';

const required: Rule = {
  id: 'auth.required',
  family: 'auth',
  section: '§5',
  level: 'documented',
  onTraffic: { scope: 'exchange', kinds: ['create'] },
  quote: 'Requests carry the Authorization header with a Bearer token (<ACCESS_TOKEN>). The header is required on the create operation.',
  statement: 'the create operation without an Authorization header does not create a record (no 2xx).',
  check: (ctx) =>
    // judges: every create POST sent with auth 'none' and no Authorization header: no 2xx
    judgeEach(ctx.exchanges, 'no create without an Authorization header', (ex) => {
      if (!methodIs(ex, 'POST') || !isCreatePath(pathOf(ex.request.url)) || !sentWithoutAuth(ex)) return skip('not an unauthenticated create');
      return is2xx(ex.response.status) ? fail(`${describe(ex)}: created without an Authorization header`, 'no 2xx', ex.response.status) : pass;
    }),
};

/** Whether a request carries no usable credentials: none at all, not a Bearer token, or vars.invalid_token. */
function withoutValidToken(ex: Exchange, invalid: string | undefined): boolean {
  if (sentWithoutAuth(ex)) return true;
  const header = authorizationHeader(ex);
  // Read back from a HAR or a recording: the credential was redacted, its validity is not known.
  if (header === undefined || hidesCredential(header)) return false;
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return m === null || (invalid !== undefined && m[1] === invalid);
}

const missing401: Rule = {
  id: 'auth.missing-401',
  family: 'auth',
  section: 'API-NOTES "Errors"',
  level: 'assumed',
  onTraffic: { scope: 'exchange' },
  statement: 'any /v2 request without a valid bearer token answers 401, title Unauthorized.',
  check: (ctx) =>
    // judges: every /v2 request with auth 'none' and no header, a non-Bearer Authorization header, or Bearer vars.invalid_token: 401 + error array titled Unauthorized
    judgeEach(ctx.exchanges, 'no /v2 request without a valid token', (ex) => {
      if (!pathOf(ex.request.url).startsWith('/v2/') || !withoutValidToken(ex, varString(ctx.vars, 'invalid_token'))) return skip('credentials sent');
      if (ex.response.status !== 401) return fail(`${describe(ex)} without a valid token answered ${ex.response.status}`, 401, ex.response.status);
      const problem = errorBodyProblem(ex.json, 401);
      if (problem !== undefined) return fail(`${describe(ex)}: error body has ${problem}`, '{"errors":[{status:401,title}]}', problem);
      const errors = at(ex.json, 'errors');
      const titled = Array.isArray(errors) && errors.some((e) => /^unauthori[sz]ed$/i.test(asString(at(e, 'title')) ?? ''));
      return titled ? pass : fail(`${describe(ex)}: error title`, 'Unauthorized', Array.isArray(errors) ? at(errors[0], 'title') : undefined);
    }),
};

const isTokenRequest = (ex: Exchange): boolean => methodIs(ex, 'POST') && /^\/oauth\/access_token\/?$/.test(pathOf(ex.request.url));

const tokenResponse: Rule = {
  id: 'auth.token.response',
  family: 'auth',
  section: 'API-NOTES "Token endpoint"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['token'] },
  statement: 'POST /oauth/access_token answers access_token, token_type Bearer, expires (unix seconds), expires_in, identifier; not wrapped in data.',
  check: (ctx) =>
    // judges: every POST /oauth/access_token answering 2xx: access_token, token_type Bearer, expires (unix seconds), expires_in, identifier at the top level, no data
    judgeEach(ctx.exchanges, 'no successful token request', (ex) => {
      if (!isTokenRequest(ex) || !is2xx(ex.response.status)) return skip('not a token answer');
      const j = ex.json;
      const problems: string[] = [];
      if ((asString(at(j, 'access_token')) ?? '') === '') problems.push('access_token missing');
      if (!/^bearer$/i.test(asString(at(j, 'token_type')) ?? '')) problems.push('token_type not Bearer');
      const expires = asNumber(at(j, 'expires'));
      if (expires === undefined || !Number.isInteger(expires) || expires < 1e9 || expires >= 1e11) problems.push('expires not unix seconds');
      if (asNumber(at(j, 'expires_in')) === undefined) problems.push('expires_in missing');
      if (asString(at(j, 'identifier')) === undefined) problems.push('identifier missing');
      if (at(j, 'data') !== undefined) problems.push('wrapped in data');
      return problems.length === 0 ? pass : fail(`${describe(ex)}: ${problems.join('; ')}`, 'access_token, token_type, expires, expires_in, identifier', problems);
    }),
};

/** The grant type of a token request (form or JSON body). */
function grantType(ex: Exchange): string | undefined {
  const body = ex.request.body ?? '';
  return asString(at(requestJson(ex), 'grant_type')) ?? new URLSearchParams(body).get('grant_type') ?? undefined;
}

const implicitReadOnly: Rule = {
  id: 'auth.implicit-read-only',
  family: 'auth',
  section: 'API-NOTES "Token endpoint"',
  level: 'assumed',
  onTraffic: { scope: 'session' },
  statement: 'an implicit token reads (200) but writes answer 403.',
  check: (ctx) => {
    // judges: ctx = POST /oauth/access_token grant_type=implicit answering 2xx, then requests with Authorization 'Bearer <that token>': GET → 2xx, POST/PUT/PATCH/DELETE → 403
    const tokens = new Set<string>();
    return judgeEach(ctx.exchanges, 'no request with an implicit token', (ex) => {
      if (isTokenRequest(ex) && grantType(ex) === 'implicit' && is2xx(ex.response.status)) {
        const token = asString(at(ex.json, 'access_token'));
        if (token !== undefined) tokens.add(token);
        return skip('token request');
      }
      const m = /^\s*bearer\s+(\S+)\s*$/i.exec(authorizationHeader(ex) ?? '');
      if (m?.[1] === undefined || !tokens.has(m[1])) return skip('not an implicit token');
      if (methodIs(ex, 'GET')) return is2xx(ex.response.status) ? pass : fail(`${describe(ex)}: a read with an implicit token answered ${ex.response.status}`, 200, ex.response.status);
      if (!methodIs(ex, 'POST', 'PUT', 'PATCH', 'DELETE')) return skip('other method');
      return ex.response.status === 403 ? pass : fail(`${describe(ex)}: a write with an implicit token answered ${ex.response.status}`, 403, ex.response.status);
    });
  },
};

export const authRules: readonly Rule[] = [required, missing401, tokenResponse, implicitReadOnly];
