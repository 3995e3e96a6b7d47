/**
 * From the shape schemas/scenario.schema.json admits (keys present or not) to the tagged unions of
 * format.ts, plus what a JSON Schema cannot say: rule ids exist, regular expressions compile,
 * templates are well formed and a capture is read only after an earlier step captured it.
 * Problems carry the path inside the document; the loader turns that into a line number.
 */
import type { DocPath } from '../yaml-locate.js';
import {
  ANY_TEMPLATE,
  DEFAULT_MAX_PAGES,
  isUserCheckId,
  TAG_SIM_ONLY,
  TAG_WRITES,
  templateRefs,
  type Assertion,
  type ExchangeSpec,
  type Expectations,
  type HeaderExpectation,
  type JsonExpectation,
  type JsonType,
  type QueryEntry,
  type RequestSpec,
  type ResponseSchemaName,
  type Scalar,
  type Scenario,
  type SchemaSpec,
  type Step,
  type StepRole,
  type WalkSpec,
} from './format.js';
import { CLIENT_RULE_IDS, EXPECT_HEADER, isClientRuleId } from '../rules/ids.js';
import { suggest } from '../suggest.js';
import { inlineSchemaProblem } from './schemas.js';

// The shape the schema admits; the ajv validator is typed as a guard for RawScenario.
interface RawRequest {
  method: string;
  path: string;
  query?: Record<string, Scalar>;
  headers?: Record<string, string>;
  auth?: 'default' | 'none';
  body?: unknown;
  raw?: string;
  breaks?: string[];
}
interface RawJsonExpectation {
  path: string;
  equals?: unknown;
  matches?: string;
  exists?: boolean;
  type?: JsonType;
  length?: number;
  lte?: number | string;
  gte?: number | string;
}
interface RawHeaderExpectation {
  equals?: string;
  matches?: string;
  exists?: boolean;
}
interface RawExpect {
  status?: number | number[];
  json?: RawJsonExpectation[];
  headers?: Record<string, RawHeaderExpectation>;
  schema?: ResponseSchemaName | Record<string, unknown>;
  rule?: string;
}
interface RawSequenceItem {
  name?: string;
  role?: StepRole;
  request: RawRequest;
  expect?: RawExpect;
  capture?: Record<string, string>;
}
interface RawWalk {
  path: string;
  mode: 'keyset-id' | 'keyset-timestamp' | 'shared-timestamp' | 'offset';
  attribute?: 'created_at' | 'updated_at';
  limit: number;
  max_pages?: number;
  query?: Record<string, Scalar>;
  between_pages?: { after_page: number; request: RawRequest };
}
interface RawStep {
  name: string;
  role?: StepRole;
  restores?: 'settings';
  rules?: string[];
  request?: RawRequest;
  expect?: RawExpect;
  capture?: Record<string, string>;
  sequence?: RawSequenceItem[];
  walk?: RawWalk;
}
export interface RawScenario {
  name: string;
  description?: string;
  /** Absent in a scenario of the author's own checks only. */
  rules?: string[];
  tags?: string[];
  steps: RawStep[];
}

export type { DocPath };
export interface Problem {
  readonly path: DocPath;
  readonly message: string;
}

export interface NormaliseContext {
  readonly file: string;
  readonly ruleExists: (id: string) => boolean;
  /** Line of a document path (the loader knows the YAML nodes). */
  readonly lineOf: (path: DocPath) => number;
}

export function normalise(raw: RawScenario, ctx: NormaliseContext): { scenario: Scenario; problems: Problem[] } {
  const problems: Problem[] = [];
  const checkRule = (id: string, path: DocPath) => {
    if (isUserCheckId(id)) problems.push({ path, message: `'${id}' names a check of your own: it judges a probe's expectations (expect: {rule: ${id}}), not a step's or scenario's rules` });
    else if (!ctx.ruleExists(id)) problems.push({ path, message: `unknown rule id '${id}' (see \`commerce-sim rules\`)` });
  };
  const scenarioRules = raw.rules ?? [];
  scenarioRules.forEach((id, i) => checkRule(id, ['rules', i]));
  checkTemplates(raw, [], problems);

  const captured = new Set<string>();
  const steps: Step[] = raw.steps.map((s, i): Step => {
    const at: DocPath = ['steps', i];
    const role = s.role ?? 'probe';
    const rules = s.rules ?? [];
    rules.forEach((id, j) => checkRule(id, [...at, 'rules', j]));
    if (role !== 'probe' && rules.length > 0) problems.push({ path: [...at, 'rules'], message: `a ${role} step gives no verdicts: move the rules to a probe step` });
    if (s.restores !== undefined && role !== 'cleanup') problems.push({ path: [...at, 'restores'], message: 'only a cleanup step restores state' });
    const exchange = (item: { role?: StepRole; request: RawRequest; expect?: RawExpect; capture?: Record<string, string> }, base: DocPath): ExchangeSpec => {
      checkCaptures({ request: item.request, expect: item.expect }, base, captured, problems);
      const itemRole = item.role ?? role;
      if (role !== 'probe' && itemRole === 'probe') problems.push({ path: [...base, 'role'], message: `a probe item cannot sit in a ${role} step` });
      const expect = expectations(item.expect, itemRole, [...base, 'expect'], problems, checkRule);
      const capture = Object.entries(item.capture ?? {}).map(([name, path]) => ({ name, path }));
      for (const c of capture) captured.add(c.name);
      item.request.breaks?.forEach((id, k) => {
        if (!isClientRuleId(id)) {
          const near = suggest(id, CLIENT_RULE_IDS);
          problems.push({
            path: [...base, 'request', 'breaks', k],
            message: `unknown client rule id '${id}'${near === undefined ? '' : ` (did you mean '${near}'?)`} (see \`commerce-sim rules --client\`)`,
          });
        }
      });
      return { role: itemRole, request: request(item.request), expect, capture };
    };
    const base = { name: s.name, line: ctx.lineOf(at), role, rules, restores: s.restores };
    if (s.walk !== undefined) {
      checkCaptures(s.walk, [...at, 'walk'], captured, problems);
      return { ...base, kind: 'walk', walk: walk(s.walk) };
    }
    if (s.sequence !== undefined) {
      const items = s.sequence.map((item, j) => exchange(item, [...at, 'sequence', j]));
      return { ...base, kind: 'sequence', items };
    }
    if (s.request !== undefined) {
      return { ...base, kind: 'request', exchange: exchange({ request: s.request, expect: s.expect, capture: s.capture }, at) };
    }
    problems.push({ path: at, message: 'a step has exactly one of request, sequence, walk' });
    return { ...base, kind: 'sequence', items: [] };
  });

  checkWriteTag(raw, problems);
  const scenario: Scenario = {
    name: raw.name,
    file: ctx.file,
    line: ctx.lineOf([]),
    rules: scenarioRules,
    tags: raw.tags ?? [],
    steps,
  };
  return { scenario, problems };
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Read-only by default against live targets rests on the `writes` tag, so a request that may change
 * data (any method but GET/HEAD/OPTIONS, the token endpoint aside) needs it, or `sim-only`.
 */
function checkWriteTag(raw: RawScenario, problems: Problem[]): void {
  const tags = raw.tags ?? [];
  if (tags.includes(TAG_WRITES) || tags.includes(TAG_SIM_ONLY)) return;
  raw.steps.forEach((s, i) => {
    const requests: [RawRequest, DocPath][] = [];
    if (s.request !== undefined) requests.push([s.request, ['steps', i, 'request', 'method']]);
    s.sequence?.forEach((item, j) => requests.push([item.request, ['steps', i, 'sequence', j, 'request', 'method']]));
    if (s.walk?.between_pages !== undefined) requests.push([s.walk.between_pages.request, ['steps', i, 'walk', 'between_pages', 'request', 'method']]);
    for (const [r, path] of requests) {
      if (!READS.has(r.method) && !r.path.startsWith('/oauth/')) {
        problems.push({ path, message: `a ${r.method} request may change data: tag the scenario '${TAG_WRITES}' (or '${TAG_SIM_ONLY}')` });
      }
    }
  });
}

function request(r: RawRequest): RequestSpec {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(r.headers ?? {})) headers[name.toLowerCase()] = value;
  // A request that breaks a client rule on purpose says so, for a traffic judge in front of the target (src/traffic/judge/deliberate.ts).
  if (r.breaks !== undefined) headers[EXPECT_HEADER] = r.breaks.join(', ');
  const body: RequestSpec['body'] = r.raw !== undefined ? { kind: 'raw', text: r.raw } : Object.hasOwn(r, 'body') ? { kind: 'json', value: r.body } : { kind: 'none' };
  return { method: r.method, path: r.path, query: entries(r.query), headers, auth: r.auth ?? 'default', body };
}

const entries = (q: Record<string, Scalar> | undefined): QueryEntry[] => Object.entries(q ?? {});

function walk(w: RawWalk): WalkSpec {
  const base = {
    path: w.path,
    limit: w.limit,
    maxPages: w.max_pages ?? DEFAULT_MAX_PAGES,
    query: entries(w.query),
    betweenPages: w.between_pages === undefined ? undefined : { afterPage: w.between_pages.after_page, request: request(w.between_pages.request) },
  };
  switch (w.mode) {
    case 'keyset-id':
      return { ...base, mode: 'keyset-id' };
    case 'keyset-timestamp':
      return { ...base, mode: 'keyset-timestamp', attribute: w.attribute ?? 'created_at' };
    case 'shared-timestamp':
      return { ...base, mode: 'shared-timestamp', attribute: w.attribute ?? 'created_at' };
    case 'offset':
      return { ...base, mode: 'offset' };
  }
}

function expectations(e: RawExpect | undefined, role: StepRole, at: DocPath, problems: Problem[], checkRule: (id: string, path: DocPath) => void): Expectations {
  if (e?.rule !== undefined) {
    // A `user.` id is the author's own check: no catalogue rule to find.
    if (!isUserCheckId(e.rule)) checkRule(e.rule, [...at, 'rule']);
    if (role !== 'probe') problems.push({ path: [...at, 'rule'], message: `a ${role} expectation is a precondition, not a verdict: remove its rule` });
  }
  const judges = e !== undefined && (e.status !== undefined || (e.json?.length ?? 0) > 0 || Object.keys(e.headers ?? {}).length > 0 || e.schema !== undefined);
  if (role === 'probe' && judges && e.rule === undefined) problems.push({ path: at, message: "a probe's expectation names the rule it judges: add `rule: <id>` (or make the step a setup)" });
  const status = e?.status === undefined ? [] : Array.isArray(e.status) ? e.status : [e.status];
  const json: JsonExpectation[] = [];
  (e?.json ?? []).forEach((item, i) => {
    for (const assertion of assertions(item)) {
      if (assertion.op === 'matches') checkRegex(assertion.pattern, [...at, 'json', i, 'matches'], problems);
      json.push({ path: item.path, assertion });
    }
  });
  const headers: HeaderExpectation[] = [];
  for (const [name, h] of Object.entries(e?.headers ?? {})) {
    for (const assertion of assertions(h)) {
      if (assertion.op === 'equals' || assertion.op === 'matches' || assertion.op === 'exists') {
        if (assertion.op === 'matches') checkRegex(assertion.pattern, [...at, 'headers', name, 'matches'], problems);
        headers.push({ name: name.toLowerCase(), assertion });
      }
    }
  }
  let schema: SchemaSpec | undefined;
  if (typeof e?.schema === 'string') schema = { kind: 'named', name: e.schema };
  else if (e?.schema !== undefined) {
    const problem = inlineSchemaProblem(e.schema);
    if (problem !== undefined) problems.push({ path: [...at, 'schema'], message: `is not a usable JSON Schema: ${problem}` });
    schema = { kind: 'inline', schema: e.schema };
  }
  return { status, json, headers, schema, rule: role === 'probe' ? e?.rule : undefined };
}

/** One assertion per key given, in a fixed order (so reports read the same whatever the YAML order). */
function assertions(item: Omit<RawJsonExpectation, 'path'>): Assertion[] {
  const out: Assertion[] = [];
  if (Object.hasOwn(item, 'equals')) out.push({ op: 'equals', value: item.equals });
  if (item.exists !== undefined) out.push({ op: 'exists', value: item.exists });
  if (item.type !== undefined) out.push({ op: 'type', type: item.type });
  if (item.matches !== undefined) out.push({ op: 'matches', pattern: item.matches });
  if (item.length !== undefined) out.push({ op: 'length', value: item.length });
  if (item.gte !== undefined) out.push({ op: 'gte', value: item.gte });
  if (item.lte !== undefined) out.push({ op: 'lte', value: item.lte });
  return out;
}

function checkRegex(pattern: string, path: DocPath, problems: Problem[]): void {
  if (pattern.includes('${{')) return; // judged after interpolation
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    problems.push({ path, message: `not a regular expression: ${error instanceof Error ? error.message : String(error)}` });
  }
}

const VALID_TEMPLATE = /^\s*(vars|captures)\.[A-Za-z_][A-Za-z0-9_]*\s*$/;

/** Every `${{ ... }}` in the document must read vars.NAME or captures.NAME. */
function checkTemplates(value: unknown, path: DocPath, problems: Problem[]): void {
  if (typeof value === 'string') {
    for (const m of value.matchAll(ANY_TEMPLATE)) {
      if (!VALID_TEMPLATE.test(m[1] ?? '')) {
        problems.push({ path, message: `unknown template '${m[0]}': write \${{ vars.NAME }} or \${{ captures.NAME }}` });
      }
    }
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => checkTemplates(v, [...path, i], problems));
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) checkTemplates(v, [...path, k], problems);
  }
}

function checkCaptures(value: unknown, path: DocPath, captured: ReadonlySet<string>, problems: Problem[]): void {
  if (typeof value === 'string') {
    for (const ref of templateRefs(value)) {
      if (ref.scope === 'captures' && !captured.has(ref.name)) problems.push({ path, message: `reads captures.${ref.name}, which no earlier step captures` });
    }
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => checkCaptures(v, [...path, i], captured, problems));
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) checkCaptures(v, [...path, k], captured, problems);
  }
}
