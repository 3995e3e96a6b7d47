/**
 * Scenario expectations: each one judges one exchange and gives one Verdict (source `expectation`),
 * attributed to the rule the loader resolved. Also JSON paths for expectations and captures.
 */
import type { Verdict } from '../report/model.js';
import { fail, pass, type Outcome } from '../rules/rule.js';
import { recordAttr } from '../rules/inspect.js';
import type { Exchange } from '../port.js';
import { interpolate, type Assertion, type Capture, type Expectations, type Interpolated, type SchemaSpec, type TemplateValues } from './format.js';
import { schemaLabel, schemaValidator } from './schemas.js';

// ---------------------------------------------------------------- JSON paths

type PathValue = { readonly found: true; readonly value: unknown } | { readonly found: false };

const SEGMENT = /\.([A-Za-z_][A-Za-z0-9_-]*)|\[(-?[0-9]+)\]|\['([^']*)'\]|\.@([a-z_]+)$/y;

/**
 * `$`, `.member`, `[index]` (negative from the end), `['member name']`, and last `.@attribute`: a record's
 * attribute wherever a conforming deployment keeps it (`$.data[2].@created_at` finds `meta.timestamps`,
 * `meta`, the record itself or `attributes`: rules/inspect.ts recordAttr). The schema admits nothing else.
 */
function readPath(json: unknown, path: string): PathValue {
  if (!path.startsWith('$')) return { found: false };
  let cur: unknown = json;
  SEGMENT.lastIndex = 1;
  while (SEGMENT.lastIndex < path.length) {
    const m = SEGMENT.exec(path);
    if (m === null) return { found: false };
    const [, member, index, quoted, attribute] = m;
    if (attribute !== undefined) {
      const value = recordAttr(cur, attribute);
      return value === undefined ? { found: false } : { found: true, value };
    }
    if (index !== undefined) {
      if (!Array.isArray(cur)) return { found: false };
      const list: readonly unknown[] = cur;
      const i = Number(index) < 0 ? list.length + Number(index) : Number(index);
      if (i < 0 || i >= list.length) return { found: false };
      cur = list[i];
    } else {
      const key = member ?? quoted ?? '';
      if (typeof cur !== 'object' || cur === null || Array.isArray(cur) || !Object.hasOwn(cur, key)) return { found: false };
      cur = Object.getOwnPropertyDescriptor(cur, key)?.value;
    }
  }
  return { found: true, value: cur };
}

/** Values captured from an exchange, and the captures whose path found nothing. */
export function captureValues(exchange: Exchange, captures: readonly Capture[]): { values: Record<string, unknown>; missing: Capture[] } {
  const values: Record<string, unknown> = {};
  const missing: Capture[] = [];
  for (const c of captures) {
    const got = readPath(exchange.json, c.path);
    if (got.found) values[c.name] = got.value;
    else missing.push(c);
  }
  return { values, missing };
}

// ---------------------------------------------------------------- expectations

/** Templates in expected values are filled before the request is sent, so a missing one skips the step. */
export function resolveExpectations(expect: Expectations, values: TemplateValues): Interpolated<Expectations> {
  const json: Expectations['json'][number][] = [];
  for (const item of expect.json) {
    const a = resolveAssertion(item.assertion, values);
    if (!a.ok) return a;
    json.push({ path: item.path, assertion: a.value });
  }
  const headers: Expectations['headers'][number][] = [];
  for (const h of expect.headers) {
    const a = resolveAssertion(h.assertion, values);
    if (!a.ok) return a;
    const assertion = a.value;
    if (assertion.op === 'equals' || assertion.op === 'matches' || assertion.op === 'exists') headers.push({ name: h.name, assertion });
  }
  return { ok: true, value: { ...expect, json, headers } };
}

function resolveAssertion(a: Assertion, values: TemplateValues): Interpolated<Assertion> {
  switch (a.op) {
    case 'equals': {
      const r = interpolate(a.value, values);
      return r.ok ? { ok: true, value: { op: 'equals', value: r.value } } : r;
    }
    case 'matches': {
      const r = interpolate(a.pattern, values);
      return r.ok ? { ok: true, value: { op: 'matches', pattern: String(r.value) } } : r;
    }
    case 'lte':
    case 'gte': {
      const r = interpolate(a.value, values);
      if (!r.ok) return r;
      const v = typeof r.value === 'number' ? r.value : String(r.value);
      return { ok: true, value: a.op === 'lte' ? { op: 'lte', value: v } : { op: 'gte', value: v } };
    }
    default:
      return { ok: true, value: a };
  }
}

export function evaluateExpectations(expect: Expectations, exchange: Exchange): Verdict[] {
  const verdict = (description: string, outcome: Outcome): Verdict => ({ ruleId: expect.rule ?? '', source: 'expectation', description, outcome });
  const out: Verdict[] = [];
  const { status } = exchange.response;
  if (expect.status.length > 0) {
    const want = expect.status.length === 1 ? `status is ${String(expect.status[0])}` : `status is one of ${expect.status.join(', ')}`;
    out.push(
      verdict(want, expect.status.includes(status) ? pass : fail(`expected ${want.slice('status is '.length)}, got ${status}`, expect.status.length === 1 ? expect.status[0] : expect.status, status)),
    );
  }
  for (const h of expect.headers) {
    const value = exchange.response.headers[h.name];
    out.push(verdict(`header ${h.name} ${describe(h.assertion)}`, judge(h.assertion, value === undefined ? { found: false } : { found: true, value }, `header ${h.name}`)));
  }
  for (const j of expect.json) {
    const description = `${j.path} ${describe(j.assertion)}`;
    if (exchange.json === undefined && !(j.assertion.op === 'exists' && !j.assertion.value)) {
      out.push(verdict(description, fail(`response body is not JSON (status ${status})`, 'a JSON body', cutText(exchange.response.body))));
      continue;
    }
    out.push(verdict(description, judge(j.assertion, readPath(exchange.json, j.path), j.path)));
  }
  if (expect.schema !== undefined) out.push(verdict(`body matches schema ${schemaLabel(expect.schema)}`, matchSchema(expect.schema, exchange)));
  return out;
}

function describe(a: Assertion): string {
  switch (a.op) {
    case 'equals':
      return `equals ${JSON.stringify(a.value) ?? 'undefined'}`;
    case 'matches':
      return `matches /${a.pattern}/`;
    case 'exists':
      return a.value ? 'exists' : 'is absent';
    case 'type':
      return `is of type ${a.type}`;
    case 'length':
      return `has length ${a.value}`;
    case 'lte':
      return `≤ ${JSON.stringify(a.value)}`;
    case 'gte':
      return `≥ ${JSON.stringify(a.value)}`;
  }
}

function judge(a: Assertion, got: PathValue, what: string): Outcome {
  if (a.op === 'exists') {
    return got.found === a.value ? pass : fail(`${what} ${a.value ? 'is missing' : 'is present'}`, a.value ? 'present' : 'absent', got.found ? got.value : 'absent');
  }
  if (!got.found) return fail(`${what} is missing`, expectedOf(a), 'absent');
  const v = got.value;
  switch (a.op) {
    case 'equals':
      return deepEqual(v, a.value) ? pass : fail(`${what} differs`, a.value, v);
    case 'matches': {
      const text = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
      let re: RegExp;
      try {
        re = new RegExp(a.pattern, 'u');
      } catch (error) {
        return fail(`not a regular expression: /${a.pattern}/`, a.pattern, error instanceof Error ? error.message : String(error));
      }
      return text !== undefined && re.test(text) ? pass : fail(`${what} does not match /${a.pattern}/`, `/${a.pattern}/`, v);
    }
    case 'type':
      return typeOf(v) === a.type || (a.type === 'number' && typeOf(v) === 'integer') ? pass : fail(`${what} is of type ${typeOf(v)}`, a.type, v);
    case 'length': {
      const length = Array.isArray(v) || typeof v === 'string' ? v.length : undefined;
      return length === a.value ? pass : fail(`${what} has length ${length ?? 'none (not a list or string)'}`, a.value, length ?? v);
    }
    case 'lte':
    case 'gte': {
      const want = `${a.op === 'lte' ? '≤' : '≥'} ${JSON.stringify(a.value)}`;
      const order = compare(v, a.value);
      if (order === undefined) return fail(`${what} is not a ${typeof a.value}`, want, v);
      return (a.op === 'lte' ? order <= 0 : order >= 0) ? pass : fail(`${what} is ${JSON.stringify(v)}`, want, v);
    }
  }
}

/** Sign of v − w when both are numbers or both strings (ISO timestamps compare as text). */
function compare(v: unknown, w: number | string): number | undefined {
  if (typeof v === 'number' && typeof w === 'number') return v - w;
  if (typeof v === 'string' && typeof w === 'string') return v < w ? -1 : v > w ? 1 : 0;
  return undefined;
}

const expectedOf = (a: Assertion): unknown => (a.op === 'matches' ? `/${a.pattern}/` : a.op === 'type' ? a.type : a.value);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(Object.getOwnPropertyDescriptor(a, k)?.value, Object.getOwnPropertyDescriptor(b, k)?.value));
}

const cutText = (text: string): string => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

// ---------------------------------------------------------------- response schemas

function matchSchema(spec: SchemaSpec, exchange: Exchange): Outcome {
  const name = schemaLabel(spec);
  if (exchange.json === undefined) return fail(`response body is not JSON (status ${exchange.response.status})`, `a body matching ${name}`, cutText(exchange.response.body));
  const validate = schemaValidator(spec);
  if (validate(exchange.json)) return pass;
  const problems = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath === '' ? '$' : `$${e.instancePath.replace(/\//g, '.')}`} ${e.message ?? 'is invalid'}`);
  return fail(`body does not match schema ${name}: ${problems.join('; ')}`, name, problems);
}
