/**
 * Secrets out of an entry of traffic before it is written (src/report/redact.ts decides what a secret
 * is): credential headers (Authorization, cookies, tokens; the scheme kept), secret members of JSON
 * bodies (a token response's `access_token`), secret pairs of form bodies and of the URL's query
 * (`client_secret=`, `password=`, `access_token=`). The values taken out are returned too, so that the
 * writer can take them out wherever else they appear, in this entry and in later ones (the token of a
 * token response, echoed in a later body). Pure.
 */
import { lazyExchange, type TargetRequest, type TargetResponse } from '../../port.js';
import { isSecretHeader, isSecretKey, mayNameSecret, REDACTED, redactBody, redactHeaders, redactSpellings, spellingsOf } from '../../report/redact.js';
import { credentialShape, maskPassword } from '../../redacted.js';
import type { TrafficEntry } from '../entry.js';
import { headerValue } from './headers.js';

/** A value shorter than this is not learned as a secret to hunt elsewhere (it would match ordinary text). */
const MIN_LEARNED = 8;

export interface Redacted {
  readonly entry: TrafficEntry;
  /** Secret values found in the entry (credentials, secret members and pairs), to remove elsewhere. */
  readonly learned: readonly string[];
}

/** The entry with its secrets replaced by `[REDACTED]`; `known` are literal secrets removed wherever they appear. */
export function redactEntry(entry: TrafficEntry, known: readonly string[], fingerprint?: (credential: string) => string): Redacted {
  const { request, response } = entry.exchange;
  const learned = new Set<string>();
  collectHeaders(request.headers ?? {}, learned);
  collectHeaders(response.headers, learned);
  collectPairs(request.url, learned);
  if (request.body !== undefined) collectBody(request.body, learned);
  // Whether the answer could name a secret member, read once: for collecting, and for redacting it below.
  const namesSecret = mayNameSecret(response.body);
  collectBody(response.body, learned, namesSecret);
  const found = [...learned].filter((s) => s.length >= MIN_LEARNED && s !== REDACTED);
  const secrets = [...known, ...found];
  // Every spelling of every secret worked out once for the entry's texts (url, headers, bodies).
  const spellings = secrets.length === 0 ? [] : spellingsOf(secrets);
  const text = (s: string) => (spellings.length === 0 ? s : redactSpellings(s, spellings));
  const redactedRequest: TargetRequest = {
    method: request.method,
    url: text(redactPairs(request.url)),
    headers: markCredential(cleanHeaders(request.headers ?? {}, text), request.headers ?? {}, fingerprint),
    ...(request.body === undefined ? {} : { body: text(cleanBody(request.body, request.headers, passwordPlaceholder)) }),
  };
  const redactedResponse: TargetResponse = {
    status: response.status,
    headers: cleanHeaders(response.headers, text),
    body: text(cleanBody(response.body, response.headers, undefined, namesSecret)),
  };
  return { entry: { ...entry, exchange: lazyExchange(redactedRequest, redactedResponse) }, learned: found };
}

/** Query parameter and form field names taken for secrets: the body's (`client_secret`) and the header's (`api_key` as `api-key`, `session`). */
const isSecretName = (name: string): boolean => isSecretKey(name) || isSecretHeader(name.replace(/_/g, '-'));

/** `key=value` pairs of a query or a form body whose key names a secret get `[REDACTED]` for value. */
function redactPairs(text: string): string {
  return text.replace(/(^|[?&;])([^=&?#;\s]+)=([^&#;\s]*)/g, (whole, lead: string, key: string) => (isSecretName(decodeName(key)) ? `${lead}${key}=${REDACTED}` : whole));
}

function decodeName(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}

function cleanHeaders(headers: Readonly<Record<string, string>>, text: (s: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(redactHeaders(headers))) out[name] = text(isSecretHeader(name) ? value : redactPairs(value));
  return out;
}

const isForm = (headers: Readonly<Record<string, string>> | undefined): boolean => /^\s*application\/x-www-form-urlencoded/i.test(headerValue(headers, 'content-type') ?? '');

function cleanBody(body: string, headers: Readonly<Record<string, string>> | undefined, placeholder?: (key: string, value: unknown) => string, namesSecret?: boolean): string {
  return isForm(headers) ? redactPairs(body) : redactBody(body, placeholder, namesSecret);
}

/**
 * A request's password becomes its mark (src/redacted.ts): as many `*` as it had characters when every
 * reading of "character" agrees, else each reading's count. The secret is gone; the judge can still tell
 * a short password from a long one (create.password.min-length, client.create.password-length).
 */
function passwordPlaceholder(key: string, value: unknown): string {
  return key.toLowerCase() !== 'password' || typeof value !== 'string' ? REDACTED : maskPassword(value);
}

// ---------------------------------------------------------------- what the secrets were

function collectHeaders(headers: Readonly<Record<string, string>>, into: Set<string>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!isSecretHeader(name)) continue;
    const lower = name.toLowerCase();
    if (lower === 'cookie' || lower === 'set-cookie') {
      // `a=1; b=2` and `sid=xyz; Path=/; HttpOnly`: the cookies' values (attributes are no secret).
      for (const m of value.matchAll(/(?:^|[;,\n]\s*)([^=;,\s]+)=([^;,\n]*)/g)) if (!/^(?:path|domain|expires|max-age|samesite)$/i.test(m[1] ?? '')) into.add((m[2] ?? '').trim());
    } else into.add(value.replace(/^[A-Za-z][\w-]* +(?=\S)/, '').trim());
  }
}

function collectPairs(text: string, into: Set<string>): void {
  for (const m of text.matchAll(/(?:^|[?&;])([^=&?#;\s]+)=([^&#;\s]*)/g)) if (isSecretName(decodeName(m[1] ?? ''))) into.add(decodeName(m[2] ?? ''));
}

function collectBody(body: string, into: Set<string>, namesSecret = mayNameSecret(body)): void {
  if (!/^\s*[[{]/.test(body)) {
    collectPairs(body, into);
    return;
  }
  // No member of it could be named as a secret: nothing to collect (report/redact.ts, mayNameSecret).
  if (!namesSecret) return;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return;
  }
  collectValues(json, into, 0);
}

function collectValues(value: unknown, into: Set<string>, depth: number): void {
  if (typeof value !== 'object' || value === null || depth > 64) return;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && isSecretKey(k)) into.add(v);
    else collectValues(v, into, depth + 1);
  }
}

/**
 * `Authorization: Bearer [REDACTED 3f9a0c12]`: the credential replaced by a keyed hash of it (the key is
 * the writer's own, random, never written), so a reader still tells one client's requests from another's
 * (the judge's sessions) and learns nothing of the credential.
 */
function markCredential(cleaned: Record<string, string>, original: Readonly<Record<string, string>>, fingerprint: ((credential: string) => string) | undefined): Record<string, string> {
  for (const [name, value] of Object.entries(original)) {
    if (name.toLowerCase() !== 'authorization' || cleaned[name] === undefined) continue;
    const shape = credentialShape(value);
    // A scheme with nothing after it holds no secret: kept as sent, so that the missing credential shows.
    if (shape.kind === 'scheme' && !shape.credential) {
      cleaned[name] = value;
      continue;
    }
    // A credential sent without its scheme keeps that fact (client.create.authorization judges it), never its value.
    const noScheme = shape.kind === 'no-scheme' ? ', no scheme' : '';
    const key = fingerprint === undefined ? '' : ` ${fingerprint(value)}`;
    if (key !== '' || noScheme !== '') cleaned[name] = cleaned[name].replace(REDACTED, `[REDACTED${key}${noScheme}]`);
  }
  return cleaned;
}
