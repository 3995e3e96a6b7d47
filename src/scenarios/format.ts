/**
 * A scenario as the runner sees it: validated against schemas/scenario.schema.json by the loader,
 * then normalised into tagged unions (`kind`, `op`, `mode`) so consumers switch instead of probing keys.
 * Strings anywhere in requests and expectations may hold `${{ vars.NAME }}` or `${{ captures.NAME }}`.
 */
import type { Result } from '../result.js';

export type ResponseSchemaName = 'list-response' | 'error-response' | 'password-profile-info' | 'token-response' | 'settings';

/** Scenario tags with a meaning to the runner; others are free labels for `--tag`. */
export const TAG_WRITES = 'writes';
export const TAG_SIM_ONLY = 'sim-only';

export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';
export type Scalar = string | number | boolean;

export interface Scenario {
  readonly name: string;
  /** The file as shown in reports (relative, `/`-separated) and hashed for `--shard`. */
  readonly file: string;
  /**
   * The absolute path it was read from (set by loadScenarios): `file` is relative to the working
   * directory or, outside it, to the folder given, so it alone cannot say where the file is.
   */
  readonly source?: string;
  /** 1-based line of the scenario's document in its file. */
  readonly line: number;
  readonly rules: readonly string[];
  readonly tags: readonly string[];
  readonly steps: readonly Step[];
}

export type Step = RequestStep | SequenceStep | WalkStep;

/**
 * `setup` prepares (reads ids, changes settings, creates data) and `cleanup` undoes: neither gives rule
 * verdicts, their expectations are preconditions. A `probe` judges: its checks and expectations name rules.
 */
export type StepRole = 'setup' | 'probe' | 'cleanup';

/** State a cleanup step can restore; the runner verifies it and, while it is not, rules that depend on it are inconclusive. */
export type RestorableState = 'settings';

interface StepBase {
  readonly name: string;
  readonly line: number;
  readonly role: StepRole;
  /** Rules whose oracle checks judge the step's exchanges (probes only; may be empty). */
  readonly rules: readonly string[];
  /** On a cleanup step: the state it restores. */
  readonly restores: RestorableState | undefined;
}

interface RequestStep extends StepBase {
  readonly kind: 'request';
  readonly exchange: ExchangeSpec;
}

/** Several requests judged together by the step's rules. */
interface SequenceStep extends StepBase {
  readonly kind: 'sequence';
  readonly items: readonly ExchangeSpec[];
}

interface WalkStep extends StepBase {
  readonly kind: 'walk';
  readonly walk: WalkSpec;
}

/** One request with what to expect of its response and what to capture from it. */
export interface ExchangeSpec {
  /** A request step's role, or a sequence item's own (default: its step's). */
  readonly role: StepRole;
  readonly request: RequestSpec;
  readonly expect: Expectations;
  readonly capture: readonly Capture[];
}

export interface RequestSpec {
  readonly method: string;
  readonly path: string;
  /** In the order written; names are sent raw (brackets unencoded). */
  readonly query: readonly QueryEntry[];
  /** Lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly auth: 'default' | 'none';
  readonly body: BodySpec;
}

export type QueryEntry = readonly [name: string, value: Scalar];

type BodySpec = { readonly kind: 'none' } | { readonly kind: 'json'; readonly value: unknown } | { readonly kind: 'raw'; readonly text: string };

/** A schema the body must match: one shipped with the tool, or the scenario's own JSON Schema. */
export type SchemaSpec = { readonly kind: 'named'; readonly name: ResponseSchemaName } | { readonly kind: 'inline'; readonly schema: Readonly<Record<string, unknown>> };

/**
 * Ids a scenario author gives their own expectations (`expect: {rule: user.my-check}`): reported apart
 * from the catalogue's rules, with the scenario file and line, and a failing one fails the run.
 */
const USER_CHECK_PREFIX = 'user.';
export const isUserCheckId = (id: string): boolean => id.startsWith(USER_CHECK_PREFIX);

export interface Expectations {
  /** Accepted statuses; empty: any. */
  readonly status: readonly number[];
  readonly json: readonly JsonExpectation[];
  readonly headers: readonly HeaderExpectation[];
  readonly schema: SchemaSpec | undefined;
  /** The rule a probe's expectations judge (a catalogue id, or a `user.` id of the author's own); undefined in setup and cleanup, where they are preconditions. */
  readonly rule: string | undefined;
}

export interface JsonExpectation {
  readonly path: string;
  readonly assertion: Assertion;
}

export interface HeaderExpectation {
  /** Lower-cased. */
  readonly name: string;
  readonly assertion: Extract<Assertion, { op: 'equals' | 'matches' | 'exists' }>;
}

export type Assertion =
  | { readonly op: 'equals'; readonly value: unknown }
  | { readonly op: 'matches'; readonly pattern: string }
  | { readonly op: 'exists'; readonly value: boolean }
  | { readonly op: 'type'; readonly type: JsonType }
  | { readonly op: 'length'; readonly value: number }
  | { readonly op: 'lte'; readonly value: number | string }
  | { readonly op: 'gte'; readonly value: number | string };

export interface Capture {
  readonly name: string;
  readonly path: string;
}

interface WalkBase {
  readonly path: string;
  readonly limit: number;
  readonly maxPages: number;
  /** Extra query parameters kept on every page (a `filter` is joined to the walk's own with `:`). */
  readonly query: readonly QueryEntry[];
  /** A request sent once after page `afterPage` (1-based, not counting the initial unfiltered GET). */
  readonly betweenPages: { readonly afterPage: number; readonly request: RequestSpec } | undefined;
}

export type WalkSpec =
  | (WalkBase & { readonly mode: 'keyset-id' })
  | (WalkBase & { readonly mode: 'keyset-timestamp'; readonly attribute: 'created_at' | 'updated_at' })
  /** Finds a run of records sharing one timestamp (reading `limit` a page), then pages through it on ge with a page shorter than the run. */
  | (WalkBase & { readonly mode: 'shared-timestamp'; readonly attribute: 'created_at' | 'updated_at' })
  | (WalkBase & { readonly mode: 'offset' });

export const DEFAULT_MAX_PAGES = 1000;

// ---------------------------------------------------------------- templates

type TemplateScope = 'vars' | 'captures';

export interface TemplateRef {
  readonly scope: TemplateScope;
  readonly name: string;
}

/** What a template can read: run variables (text) and values captured by earlier steps. */
export interface TemplateValues {
  readonly vars: Readonly<Record<string, string>>;
  readonly captures: Readonly<Record<string, unknown>>;
}

export type Interpolated<T> = Result<T, { readonly missing: TemplateRef }>;

const TEMPLATE = /\$\{\{\s*(vars|captures)\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const WHOLE_TEMPLATE = /^\$\{\{\s*(vars|captures)\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;
/** Anything that looks like a template, valid or not (the loader rejects the invalid ones). */
export const ANY_TEMPLATE = /\$\{\{(.*?)\}\}/g;

/** The reason a step or scenario is skipped when a template names something unknown. */
export function missingReason(ref: TemplateRef): string {
  return ref.scope === 'vars' ? `needs variable '${ref.name}' (give it with --var ${ref.name}=...)` : `needs capture '${ref.name}' (no earlier step captured it)`;
}

/** Every template reference in a value (strings inside objects and arrays included), in order. */
export function templateRefs(value: unknown): TemplateRef[] {
  const out: TemplateRef[] = [];
  visitStrings(value, (s) => {
    for (const m of s.matchAll(TEMPLATE)) {
      const [, scope, name] = m;
      if ((scope === 'vars' || scope === 'captures') && name !== undefined) out.push({ scope, name });
    }
  });
  return out;
}

function visitStrings(value: unknown, visit: (s: string) => void): void {
  if (typeof value === 'string') visit(value);
  else if (Array.isArray(value)) for (const v of value) visitStrings(v, visit);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) visitStrings(v, visit);
}

function lookup(ref: TemplateRef, values: TemplateValues): { found: true; value: unknown } | { found: false } {
  const table: Readonly<Record<string, unknown>> = ref.scope === 'vars' ? values.vars : values.captures;
  return Object.hasOwn(table, ref.name) && table[ref.name] !== undefined ? { found: true, value: table[ref.name] } : { found: false };
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return JSON.stringify(value) ?? '';
}

/** A string with every template replaced by its value's text. */
export function interpolateString(text: string, values: TemplateValues): Interpolated<string> {
  let missing: TemplateRef | undefined;
  const value = text.replace(TEMPLATE, (whole, scope: string, name: string) => {
    const ref: TemplateRef = { scope: scope === 'vars' ? 'vars' : 'captures', name };
    const hit = lookup(ref, values);
    if (!hit.found) {
      missing ??= ref;
      return whole;
    }
    return asText(hit.value);
  });
  return missing === undefined ? { ok: true, value } : { ok: false, missing };
}

/**
 * Replaces templates in every string of a JSON-like value. A string that is one template and nothing
 * else takes the value itself (a captured number stays a number); other strings get its text.
 */
export function interpolate(value: unknown, values: TemplateValues): Interpolated<unknown> {
  if (typeof value === 'string') {
    const whole = WHOLE_TEMPLATE.exec(value);
    if (whole !== null && whole[1] !== undefined && whole[2] !== undefined) {
      const ref: TemplateRef = { scope: whole[1] === 'vars' ? 'vars' : 'captures', name: whole[2] };
      const hit = lookup(ref, values);
      return hit.found ? { ok: true, value: hit.value } : { ok: false, missing: ref };
    }
    return interpolateString(value, values);
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const r = interpolate(item, values);
      if (!r.ok) return r;
      out.push(r.value);
    }
    return { ok: true, value: out };
  }
  if (typeof value === 'object' && value !== null) {
    const out: [string, unknown][] = [];
    for (const [k, v] of Object.entries(value)) {
      const r = interpolate(v, values);
      if (!r.ok) return r;
      out.push([k, r.value]);
    }
    // fromEntries defines own properties, so a `__proto__` member stays data.
    return { ok: true, value: Object.fromEntries(out) };
  }
  return { ok: true, value };
}
