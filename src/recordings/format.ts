/**
 * The fixture format (schemas/fixture.schema.json): one request/response pair as a unit test loads it.
 * Serialised with keys in a fixed order, 2-space JSON and a trailing newline, so the same exchange is
 * the same bytes on every machine. Generated fixtures and recordings share it; diff reads it back.
 */
import { CREDENTIAL_PLACEHOLDER, PASSWORD_PLACEHOLDER } from '../redacted.js';
import type { Result } from '../result.js';
import { isSecretHeader, isSecretKey, redactValue, secretSpellings } from '../report/redact.js';
import { isObject } from '../rules/inspect.js';
import { parseJsonOrUndefined, type Exchange } from '../port.js';

/** A JSON body parsed (object or array), or the raw text of anything else (form bodies, malformed JSON, ""). */
export type FixtureBody = unknown;

interface FixtureRequest {
  readonly method: string;
  /** Path plus query, no scheme or host. */
  readonly url: string;
  /** Lower-cased names, sorted, credentials redacted. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: FixtureBody;
}

interface FixtureResponse {
  readonly status: number;
  /** `content-type` only (the one header a client's parser depends on), sorted. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: FixtureBody;
}

export interface Fixture {
  /** The file's path below the fixtures directory, without `.json` (`lists/default-page`). */
  readonly case: string;
  readonly rules: readonly string[];
  readonly request: FixtureRequest;
  readonly response: FixtureResponse;
}

export interface FixtureFile {
  /** `/`-separated, relative to the output directory. */
  readonly file: string;
  readonly content: string;
}

/** Placeholders that stand where a secret was. */
export const ACCESS_TOKEN = '<access_token>';
export const PASSWORD = PASSWORD_PLACEHOLDER;
export const CLIENT_SECRET = '<client_secret>';
const REDACTED_CREDENTIAL = CREDENTIAL_PLACEHOLDER;
/** Where a recording had the target's origin. */
export const BASE_URL = '{base_url}';

/** Parsed JSON when the text is a JSON object or array, the text itself otherwise. */
export function bodyOf(text: string): FixtureBody {
  const parsed = parseJsonOrUndefined(text);
  return typeof parsed === 'object' && parsed !== null ? parsed : text;
}

function sortedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  const names = Object.keys(headers).map((n) => [n.toLowerCase(), n] as const);
  names.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [lower, name] of names) {
    const value = headers[name];
    if (value !== undefined) out[lower] = value;
  }
  return out;
}

/** The one response header kept. */
function responseHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const type = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return type === undefined ? {} : { 'content-type': type };
}

/** A fixture from an exchange, untouched (callers redact before or after). */
export function fixtureOf(name: string, rules: readonly string[], exchange: Exchange): Fixture {
  const { request, response } = exchange;
  return {
    case: name,
    rules,
    request: {
      method: request.method.toUpperCase(),
      url: request.url,
      headers: sortedHeaders(request.headers ?? {}),
      ...(request.body === undefined ? {} : { body: bodyOf(request.body) }),
    },
    response: { status: response.status, headers: responseHeaders(response.headers), body: bodyOf(response.body) },
  };
}

/** The bytes of a fixture: keys in the documented order whatever order the value was built in. */
export function serialiseFixture(f: Fixture): string {
  const request = {
    method: f.request.method,
    url: f.request.url,
    headers: sortedHeaders(f.request.headers),
    ...(f.request.body === undefined ? {} : { body: f.request.body }),
  };
  const response = { status: f.response.status, headers: sortedHeaders(f.response.headers), body: f.response.body };
  return serialiseJson({ case: f.case, rules: [...f.rules], request, response });
}

export function serialiseJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

// ---------------------------------------------------------------- reading back

export type FixtureParse = Result<Fixture, { readonly message: string }>;

const isStringRecord = (v: unknown): v is Readonly<Record<string, string>> => isObject(v) && Object.values(v).every((x) => typeof x === 'string');
const isStringList = (v: unknown): v is readonly string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Narrows parsed JSON to a Fixture (structure only; the JSON Schema is the full contract). */
export function parseFixture(value: unknown): FixtureParse {
  if (!isObject(value)) return { ok: false, message: 'not a JSON object' };
  const { case: name, rules, request, response } = value;
  if (typeof name !== 'string') return { ok: false, message: "'case' is not a string" };
  if (!isStringList(rules)) return { ok: false, message: "'rules' is not a list of strings" };
  if (!isObject(request) || typeof request['method'] !== 'string' || typeof request['url'] !== 'string' || !isStringRecord(request['headers'])) {
    return { ok: false, message: "'request' needs method, url and headers" };
  }
  if (!isObject(response) || typeof response['status'] !== 'number' || !isStringRecord(response['headers']) || !Object.hasOwn(response, 'body')) {
    return { ok: false, message: "'response' needs status, headers and body" };
  }
  const fixture: Fixture = {
    case: name,
    rules,
    request: {
      method: request['method'],
      url: request['url'],
      headers: request['headers'],
      ...(Object.hasOwn(request, 'body') ? { body: request['body'] } : {}),
    },
    response: { status: response['status'], headers: response['headers'], body: response['body'] },
  };
  return { ok: true, value: fixture };
}

// ---------------------------------------------------------------- secrets and stable placeholders

/** A literal secret and what stands in its place. */
export type SecretPlaceholder = readonly [secret: string, placeholder: string];

/**
 * Replaces credentials in a fixture: secret headers (the scheme is kept: `Bearer <access_token>`),
 * members and form or query parameters named like secrets (`password` → `<password>`), and every
 * literal secret given, wherever it appears (also escaped or URL-encoded).
 */
export function scrubFixture(f: Fixture, secrets: readonly SecretPlaceholder[]): Fixture {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(f.request.headers)) headers[name] = isSecretHeader(name) ? credential(name, value) : value;
  const scrubbed: Fixture = {
    ...f,
    request: {
      ...f.request,
      url: scrubPairs(f.request.url),
      headers,
      ...(f.request.body === undefined ? {} : { body: scrubBody(f.request.body) }),
    },
    response: { ...f.response, body: scrubBody(f.response.body) },
  };
  const spellings = literalSpellings(secrets);
  return mapFixtureStrings(scrubbed, (s) => replaceAll(s, spellings));
}

function credential(name: string, value: string): string {
  const scheme = /^([A-Za-z][\w-]*) +\S/.exec(value)?.[1];
  if (name.toLowerCase() !== 'authorization' || scheme === undefined) return REDACTED_CREDENTIAL;
  return scheme.toLowerCase() === 'bearer' ? `${scheme} ${ACCESS_TOKEN}` : `${scheme} ${REDACTED_CREDENTIAL}`;
}

const placeholderOf = (key: string): string => `<${key.toLowerCase()}>`;

function scrubBody(body: FixtureBody): FixtureBody {
  if (typeof body === 'string')
    return scrubPairs(body).replace(/"((?:[a-z0-9]+_)*(?:token|password|secret))"(\s*:\s*)"(?:[^"\\]|\\.)*"?/gi, (_m, key: string, sep: string) => `"${key}"${sep}"${placeholderOf(key)}"`);
  return redactValue(body, placeholderOf);
}

/** `key=value` pairs of a query or form body whose key names a secret. */
function scrubPairs(text: string): string {
  return text.replace(/(^|[?&])([^=&?#]+)=([^&#]*)/g, (whole, lead: string, key: string) => (isSecretKey(key) ? `${lead}${key}=${placeholderOf(key)}` : whole));
}

function literalSpellings(secrets: readonly SecretPlaceholder[]): SecretPlaceholder[] {
  const out = new Map<string, string>();
  for (const [secret, placeholder] of secrets) {
    if (secret.length === 0) continue;
    for (const s of secretSpellings(secret)) out.set(s, placeholder);
  }
  // Longest first, so a secret that contains another is replaced whole.
  return [...out].sort(([a], [b]) => b.length - a.length);
}

function replaceAll(text: string, spellings: readonly SecretPlaceholder[]): string {
  let out = text;
  for (const [secret, placeholder] of spellings) if (out.includes(secret)) out = out.split(secret).join(placeholder);
  return out;
}

/** Applies `fn` to every string of a fixture (member names of bodies too), in serialisation order. */
export function mapFixtureStrings(f: Fixture, fn: (s: string) => string): Fixture {
  const headers = (h: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, fn(v)]));
  return {
    case: f.case,
    rules: f.rules,
    request: {
      method: f.request.method,
      url: fn(f.request.url),
      headers: headers(f.request.headers),
      ...(f.request.body === undefined ? {} : { body: mapStrings(f.request.body, fn) }),
    },
    response: { status: f.response.status, headers: headers(f.response.headers), body: mapStrings(f.response.body, fn) },
  };
}

function mapStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [fn(k), mapStrings(v, fn)]));
}

// ---------------------------------------------------------------- the manifest (index.json)

export interface IndexRequest {
  readonly method: string;
  readonly url: string;
  readonly body?: FixtureBody;
}

export interface GeneratedEntry {
  readonly case: string;
  readonly rules: readonly string[];
  readonly description: string;
  readonly request: IndexRequest;
  readonly file: string;
  /** Simulator options that differ from the default, to reproduce the case by hand. */
  readonly sim?: { readonly accounts?: number; readonly dataset?: string };
  /** Requests sent before the saved one. */
  readonly setup?: readonly IndexRequest[];
}

export interface RecordedEntry {
  readonly case: string;
  readonly rules: readonly string[];
  readonly request: IndexRequest;
  readonly file: string;
  readonly scenario: string;
  readonly step: string;
  /** 1-based, as in run reports. */
  readonly step_index: number;
  /** 0-based position of the exchange within its step. */
  readonly exchange: number;
}

export interface RecordedScenario {
  readonly name: string;
  readonly rules: readonly string[];
  readonly status: 'pass' | 'fail' | 'skip';
  readonly skip_reason?: string;
  /** Steps that stopped before their end or never started, and why (absent when every step ran). */
  readonly steps_not_run?: readonly StepNotRun[];
}

/** A step of a recorded scenario that could not run to its end: its exchanges are the ones made before it stopped. */
export interface StepNotRun {
  /** 1-based, as in run reports. */
  readonly step_index: number;
  readonly step: string;
  readonly reason: string;
}

export type FixtureIndex =
  | { readonly format: 1; readonly kind: 'generated'; readonly seed: number; readonly base_url: string; readonly fixtures: readonly GeneratedEntry[] }
  | {
      readonly format: 1;
      readonly kind: 'recording';
      readonly target: 'sim' | 'http';
      readonly base_url: string;
      readonly rename_ids: boolean;
      readonly scenarios: readonly RecordedScenario[];
      readonly fixtures: readonly RecordedEntry[];
    };

export const INDEX_FILE = 'index.json';
