/**
 * The create operation as a client sends it (commerce-api.md §2.1, §4.1, §5, §9): the path, the
 * credential, the body and its four fields. Judged on the request alone: what the server answered says
 * nothing of what the document asks of the client (a server that accepts the hyphenated type still told
 * the client nothing it may rely on). A rule that needs a secret's shape reads it from what the traffic
 * kept: a password's counts from its redaction mark, a credential's scheme from what the redaction left.
 */
import { isJsonMediaType } from '../../media-types.js';
import { credentialShape, passwordCounts } from '../../redacted.js';
import { countRange, CHARACTER_READINGS } from '../../characters.js';
import { authorizationHeader, describe, isCreatePath, isObject, methodIs, pathOf, PROFILE_TYPE, requestJson } from '../../rules/inspect.js';
import { MIN_PASSWORD_LENGTH } from '../../limits.js';
import type { Exchange } from '../../port.js';
import type { TrafficEntry } from '../entry.js';
import { fail, inconclusive, pass, type ClientOutcome, answering, type ClientRule, type RequestContext } from './rule.js';

const COLLECTION = 'user-authentication-password-profile-info';
const PATH_SHAPE = '/v2/authentication-realms/<realm_id>/user-authentication-info/<user_authentication_info_id>/user-authentication-password-profile-info';
const FIELDS = ['type', 'password_profile_id', 'username', 'password'] as const;

/** A create attempt: a POST whose last path segment is the password-profile-info collection, however the rest of its path went wrong. */
function isCreateAttempt(ex: Exchange): boolean {
  if (!methodIs(ex, 'POST')) return false;
  return pathOf(ex.request.url).replace(/\/$/, '').split('/').at(-1) === COLLECTION;
}

/** The create's body as the body rules need it: its `data` object, or why there is none to judge. */
type Body = { readonly kind: 'data'; readonly data: Readonly<Record<string, unknown>> } | { readonly kind: 'broken'; readonly what: string } | { readonly kind: 'unseen'; readonly why: string };

function bodyOf(entry: TrafficEntry): Body {
  const ex = entry.exchange;
  if (entry.truncated === true) return { kind: 'unseen', why: 'the observer kept only the first bytes of its body' };
  const text = ex.request.body ?? '';
  if (text.trim() === '') {
    // A capture that drops request bodies (a HAR without postData) leaves the length it was sent with.
    const length = Number(headerOf(ex, 'content-length') ?? '0');
    if (length > 0 || headerOf(ex, 'transfer-encoding') !== undefined) return { kind: 'unseen', why: 'the traffic holds no text of its body, though one was sent' };
    return { kind: 'broken', what: 'no body' };
  }
  const json = requestJson(ex);
  if (json === undefined) return { kind: 'broken', what: 'a body that is not JSON' };
  if (!isObject(json)) return { kind: 'broken', what: `a JSON ${Array.isArray(json) ? 'array' : typeof json}, not an object` };
  const data = json['data'];
  if (!isObject(data)) return { kind: 'broken', what: data === undefined ? 'no data member' : 'a data member that is not an object' };
  const others = Object.keys(json).filter((k) => k !== 'data');
  if (others.length > 0) return { kind: 'broken', what: `members beside data (${others.slice(0, 5).join(', ')})` };
  return { kind: 'data', data };
}

const headerOf = (ex: Exchange, name: string): string | undefined => {
  for (const [k, v] of Object.entries(ex.request.headers ?? {})) if (k.toLowerCase() === name) return v;
  return undefined;
};

/** A rule on the create's `data` object: judged when the body has one, inconclusive when the traffic did not keep the body. */
const onData =
  (judge: (data: Readonly<Record<string, unknown>>, ctx: RequestContext) => ClientOutcome | undefined) =>
  (ctx: RequestContext): ClientOutcome | undefined => {
    if (!isCreateAttempt(ctx.ex)) return undefined;
    const body = bodyOf(ctx.entry);
    if (body.kind === 'unseen') return inconclusive(`${describe(ctx.ex)}: ${body.why}`);
    return body.kind === 'data' ? judge(body.data, ctx) : undefined;
  };

const createPath: ClientRule = answering(
  {
    id: 'client.create.path',
    family: 'client',
    section: '§4.1, §9',
    level: 'documented',
    quote:
      'Path shape: {base_url}/v2/authentication-realms/<realm_id>/user-authentication-info/<user_authentication_info_id>/user-authentication-password-profile-info (a trailing slash is also used in the request example). Resource paths are prefixed with /v2.',
    statement: 'a create is POSTed to /v2/authentication-realms/<realm_id>/user-authentication-info/<user_authentication_info_id>/user-authentication-password-profile-info, a trailing slash allowed.',
    evidence:
      'a POST to a path ending in /user-authentication-password-profile-info whose path is not that shape: no /v2 segment right before authentication-realms (the self link of a created record has none: it is not where a create goes), or a path parameter empty or missing.',
  },
  {
    request: ({ ex }) => {
      if (!isCreateAttempt(ex)) return undefined;
      const path = pathOf(ex.request.url);
      return isCreatePath(path) ? pass : fail(`${describe(ex)}: a create on a path that is not ${PATH_SHAPE}`, PATH_SHAPE, path);
    },
  },
);

const createAuthorization: ClientRule = answering(
  {
    id: 'client.create.authorization',
    family: 'client',
    section: '§4.1, §5',
    level: 'documented',
    quote:
      'Authorization | Required | string | Bearer token giving access to the API. Requests carry the Authorization header with a Bearer token (<ACCESS_TOKEN>). The header is required on the create operation.',
    statement: 'a create carries an Authorization header with a Bearer token.',
    evidence:
      'a create attempt sent with no Authorization header, or with one whose scheme is not Bearer or with no token after it, in traffic that keeps headers: the proxy, the kit’s recordings, a HAR once it has shown an Authorization header (a browser’s sanitized export drops them all: inconclusive until one shows). A credential redacted whole, scheme and all, is inconclusive.',
  },
  {
    request: ({ ex, entry }) => {
      if (!isCreateAttempt(ex)) return undefined;
      const value = authorizationHeader(ex);
      if (value === undefined) {
        if (entry.headersMayBeStripped === true)
          return inconclusive(`${describe(ex)}: no Authorization header, in a capture that has shown none on any request so far (a sanitized export removes them)`);
        return fail(`${describe(ex)}: a create without an Authorization header`, 'Authorization: Bearer <token>', 'no Authorization header');
      }
      const shape = credentialShape(value);
      if (shape.kind === 'hidden') return inconclusive(`${describe(ex)}: the Authorization header was redacted whole, its scheme with it`);
      if (shape.kind === 'no-scheme') return fail(`${describe(ex)}: an Authorization header without the Bearer scheme`, 'Bearer <token>', 'a credential without a scheme');
      if (shape.scheme.toLowerCase() !== 'bearer') return fail(`${describe(ex)}: an Authorization header of the ${shape.scheme} scheme`, 'Bearer <token>', `${shape.scheme} ...`);
      return shape.credential ? pass : fail(`${describe(ex)}: Bearer with no token after it`, 'Bearer <token>', shape.scheme);
    },
  },
);

const createBody: ClientRule = answering(
  {
    id: 'client.create.body',
    family: 'client',
    section: '§4.1',
    level: 'documented',
    quote: 'Request body: a JSON object with one member, data, which holds the fields of section 2.1 (type, password_profile_id, username, password).',
    statement: 'a create’s body is a JSON object whose one member is data, an object holding the fields.',
    evidence:
      'a create attempt whose body is missing, not JSON, not an object, has no data object, or has members beside data. A body the traffic did not keep (cut by the observer, or left out of a HAR though its length was sent) is inconclusive.',
  },
  {
    request: ({ ex, entry }) => {
      if (!isCreateAttempt(ex)) return undefined;
      const body = bodyOf(entry);
      if (body.kind === 'unseen') return inconclusive(`${describe(ex)}: ${body.why}`);
      return body.kind === 'data' ? pass : fail(`${describe(ex)}: ${body.what}`, '{"data": {type, password_profile_id, username, password}}', body.what);
    },
  },
);

const createFields: ClientRule = answering(
  {
    id: 'client.create.fields',
    family: 'client',
    section: '§2.1',
    level: 'documented',
    quote:
      'Fields in a create request (inside a top-level object named data): type | Required | string. password_profile_id | Required | string | The ID of the password profile. username | Required | string | The username used to authenticate. password | Required | string | The password used to authenticate.',
    statement: 'a create’s data holds type, password_profile_id, username and password, each a string.',
    evidence: 'a create attempt whose data object lacks one of type, password_profile_id, username, password (absent or null), or holds one that is not a string.',
  },
  {
    request: onData((data, { ex }) => {
      const missing = FIELDS.filter((f) => data[f] === undefined || data[f] === null);
      const notString = FIELDS.filter((f) => !missing.includes(f) && typeof data[f] !== 'string');
      if (missing.length === 0 && notString.length === 0) return pass;
      const what = [...missing.map((f) => `data.${f} missing`), ...notString.map((f) => `data.${f} not a string`)].join('; ');
      return fail(`${describe(ex)}: ${what}`, FIELDS.map((f) => `data.${f}: string`).join(', '), what);
    }),
  },
);

const createType: ClientRule = answering(
  {
    id: 'client.create.type',
    family: 'client',
    section: '§2.1',
    level: 'documented',
    quote:
      'The field description says it must be user-authentication-password-profile-info; the request example sends user_authentication_password_profile_info (underscores). The response carries the underscore form. Treat the underscore form as the value on the wire.',
    statement: `a create sends data.type as ${PROFILE_TYPE}, the underscore form.`,
    evidence: `a create attempt whose data.type is a string other than ${PROFILE_TYPE}: the hyphenated form, or another type (a type missing or not a string is client.create.fields').`,
  },
  {
    request: onData((data, { ex }) => {
      const type = data['type'];
      if (typeof type !== 'string') return undefined;
      return type === PROFILE_TYPE ? pass : fail(`${describe(ex)}: data.type is ${JSON.stringify(type).slice(0, 80)}`, PROFILE_TYPE, type);
    }),
  },
);

const createPasswordLength: ClientRule = answering(
  {
    id: 'client.create.password-length',
    family: 'client',
    section: '§2.1, §8',
    level: 'documented',
    quote: 'password | Required | string | The password used to authenticate. Minimum 8 characters.',
    statement: 'a create’s password has at least 8 characters.',
    evidence:
      'a create attempt whose data.password has fewer than 8 characters under every reading of “character” (graphemes, code points, UTF-16 code units), counted from the text or from the mark its redaction left. Short under one reading and not under another, or redacted without its counts: inconclusive.',
  },
  {
    request: onData((data, { ex }) => {
      const pw = data['password'];
      if (typeof pw !== 'string') return undefined;
      const counts = passwordCounts(pw);
      if (counts === undefined) return inconclusive(`${describe(ex)}: the password was redacted without its length`);
      const { least, most } = countRange(counts);
      const shown = CHARACTER_READINGS.map((r) => `${counts[r]} ${r}`).join(', ');
      if (most < MIN_PASSWORD_LENGTH) return fail(`${describe(ex)}: a ${most}-character password`, `at least ${MIN_PASSWORD_LENGTH} characters`, shown);
      if (least < MIN_PASSWORD_LENGTH) return inconclusive(`${describe(ex)}: the password is ${shown}: short under one reading of “character” and not under another`);
      return pass;
    }),
  },
);

const createContentType: ClientRule = answering(
  {
    id: 'client.create.content-type',
    family: 'client',
    section: '§4.1 (the example)',
    level: 'assumed',
    statement: 'a create says Content-Type: application/json (parameters such as charset aside), as the document’s example does.',
    evidence: 'a create attempt with a body and no Content-Type, or one that is not a JSON media type. The document lists the header as "used in the example", not as required: assumed.',
  },
  {
    request: ({ ex }) => {
      if (!isCreateAttempt(ex) || (ex.request.body ?? '').trim() === '') return undefined;
      const type = headerOf(ex, 'content-type');
      if (type === undefined) return fail(`${describe(ex)}: a create body without a Content-Type`, 'application/json', 'no Content-Type');
      return isJsonMediaType(type) ? pass : fail(`${describe(ex)}: Content-Type ${type}`, 'application/json', type);
    },
  },
);

export const createRules: readonly ClientRule[] = [createPath, createAuthorization, createBody, createFields, createType, createPasswordLength, createContentType];
