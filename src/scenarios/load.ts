/**
 * Reads scenario files (YAML, one scenario per document), validates each document against
 * schemas/scenario.schema.json with ajv and reports problems as `file:line: yaml.path: what`,
 * never as a stack trace. Directories are walked recursively in sorted order.
 */
import { CodedKitError, type KitErrorOptions } from '../kit-errors.js';
import { readFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Ajv2020, type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { LineCounter, parseAllDocuments } from 'yaml';
import { suggest } from '../suggest.js';
import { locate, yamlPath } from '../yaml-locate.js';
import type { Scenario } from './format.js';
import { normalise, type DocPath, type Problem, type RawScenario } from './normalise.js';

export type ScenarioErrorCode = 'SCENARIO_INVALID' | 'SCENARIO_NOT_FOUND';

export interface ScenarioProblem {
  readonly file: string;
  readonly line: number;
  /** `steps[0].request.method`, or `(document)` for the top level. */
  readonly yamlPath: string;
  readonly message: string;
}

export class ScenarioError extends CodedKitError<ScenarioErrorCode> {
  override readonly name = 'ScenarioError';
  /** Every problem found, each with its file, line and YAML path (the message shows the first ones). */
  readonly problems: readonly ScenarioProblem[];
  constructor(code: ScenarioErrorCode, message: string, options?: KitErrorOptions & { readonly problems?: readonly ScenarioProblem[] }) {
    super(code, message, options);
    this.problems = options?.problems ?? [];
  }
}

export interface LoadOptions {
  /** Whether a rule id is in the catalogue (the CLI passes `ruleById(id) !== undefined`). */
  readonly ruleExists: (id: string) => boolean;
  /** Files are labelled relative to this directory when inside it (default: process.cwd()). */
  readonly cwd?: string;
}

const MAX_SHOWN = 20;

const formatProblem = (p: ScenarioProblem): string => `${p.file}:${p.line}: ${p.yamlPath}: ${p.message}`;

/** Loads every scenario under `paths` in a stable order; throws ScenarioError listing every problem found. */
export async function loadScenarios(paths: readonly string[], options: LoadOptions): Promise<Scenario[]> {
  const cwd = options.cwd ?? process.cwd();
  const files = await findScenarioFiles(paths, cwd);
  if (files.length === 0) throw new ScenarioError('SCENARIO_NOT_FOUND', `no scenario files (.yaml, .yml) in ${paths.join(', ')}`);
  const scenarios: Scenario[] = [];
  const problems: ScenarioProblem[] = [];
  for (const f of files) {
    const text = await readFile(f.path, 'utf8');
    const parsed = parseScenarioText(text, f.label, options);
    scenarios.push(...parsed.scenarios.map((s) => ({ ...s, source: f.path })));
    problems.push(...parsed.problems);
  }
  const seen = new Map<string, Scenario>();
  for (const s of scenarios) {
    const first = seen.get(s.name);
    if (first === undefined) seen.set(s.name, s);
    else problems.push({ file: s.file, line: s.line, yamlPath: 'name', message: `duplicate scenario name '${s.name}' (also in ${first.file}:${first.line})` });
  }
  if (problems.length > 0) throw invalid(problems);
  return scenarios;
}

function invalid(problems: readonly ScenarioProblem[]): ScenarioError {
  const shown = problems.slice(0, MAX_SHOWN).map(formatProblem);
  if (problems.length > MAX_SHOWN) shown.push(`... and ${problems.length - MAX_SHOWN} more`);
  return new ScenarioError('SCENARIO_INVALID', shown.join('\n'), { problems });
}

/** Files named directly are taken whatever their extension; directories give their .yaml/.yml files, sorted. */
export async function findScenarioFiles(paths: readonly string[], cwd: string): Promise<{ path: string; label: string }[]> {
  const out: { path: string; label: string }[] = [];
  const seen = new Set<string>();
  const add = (path: string, root: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    out.push({ path, label: labelOf(path, root, cwd) });
  };
  for (const given of paths) {
    const root = resolve(cwd, given);
    const info = await stat(root).catch((cause: unknown) => {
      throw new ScenarioError('SCENARIO_NOT_FOUND', `cannot read scenario path ${given}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    });
    if (!info.isDirectory()) add(root, root);
    else for (const file of await walkDir(root)) add(file, root);
  }
  return out;
}

async function walkDir(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((n) => !n.startsWith('.')).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const info = await stat(path);
    if (info.isDirectory()) out.push(...(await walkDir(path)));
    else if (/\.ya?ml$/i.test(name)) out.push(path);
  }
  return out;
}

/** Relative to cwd when inside it, else relative to the parent of the root it was found under. */
function labelOf(path: string, root: string, cwd: string): string {
  const fromCwd = relative(cwd, path);
  const rel = fromCwd !== '' && !fromCwd.startsWith('..') && !isAbsolute(fromCwd) ? fromCwd : relative(dirname(root), path);
  return rel.split(sep).join('/');
}

// ---------------------------------------------------------------- one file

let validator: ValidateFunction<RawScenario> | undefined;

function scenarioValidator(): ValidateFunction<RawScenario> {
  if (validator !== undefined) return validator;
  const schema: unknown = JSON.parse(readFileSync(new URL('../../schemas/scenario.schema.json', import.meta.url), 'utf8'));
  if (!isSchemaObject(schema)) throw new Error('schemas/scenario.schema.json is not a JSON Schema object');
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictRequired: false });
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  validator = ajv.compile<RawScenario>(schema);
  return validator;
}

const isSchemaObject = (v: unknown): v is SchemaObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses the documents of one file. Problems are returned, not thrown, so a run can list every bad file. */
export function parseScenarioText(text: string, file: string, options: Pick<LoadOptions, 'ruleExists'>): { scenarios: Scenario[]; problems: ScenarioProblem[] } {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, prettyErrors: false });
  const problems: ScenarioProblem[] = [];
  const scenarios: Scenario[] = [];
  const line = (offset: number) => lineCounter.linePos(offset).line;
  for (const doc of docs) {
    if (doc.errors.length > 0) {
      for (const e of doc.errors) problems.push({ file, line: line(e.pos[0]), yamlPath: '(yaml)', message: e.message.split('\n')[0] ?? e.message });
      continue;
    }
    if (doc.contents === null) continue; // an empty document (comments only, a trailing ---)
    const lineOf = (path: DocPath) => line(locate(doc, path));
    const report = (path: DocPath, message: string) => problems.push({ file, line: lineOf(path), yamlPath: yamlPath(path), message });
    const data: unknown = doc.toJS({ maxAliasCount: 100 });
    const validate = scenarioValidator();
    if (!validate(data)) {
      for (const e of withoutTypoKnockOns(data, usefulErrors(validate.errors ?? []), validate)) report(e.path, e.message);
      continue;
    }
    const result = normalise(data, { file, ruleExists: options.ruleExists, lineOf });
    for (const p of result.problems) report(p.path, p.message);
    if (result.problems.length === 0) scenarios.push(result.scenario);
  }
  if (scenarios.length === 0 && problems.length === 0) {
    problems.push({ file, line: 1, yamlPath: '(document)', message: 'no scenario in this file' });
  }
  problems.sort((a, b) => a.line - b.line);
  return { scenarios, problems: dedupe(problems) };
}

function dedupe(problems: ScenarioProblem[]): ScenarioProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = formatProblem(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ---------------------------------------------------------------- ajv errors → readable problems

function pointerPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9][0-9]*)$/.test(s) ? Number(s) : s));
}

/** A schema problem; an unknown key near an allowed one carries both, so its knock-ons can be told apart. */
interface SchemaProblem extends Problem {
  readonly typo?: { readonly key: string; readonly near: string };
}

/**
 * A typo (`requets:`) also leaves its step without a request, so the schema says that too; those
 * problems are the typo's knock-ons. The document is validated again with each typo read as the key
 * it is near; only the problems that remain, and the typos, are reported.
 */
function withoutTypoKnockOns(data: unknown, problems: readonly SchemaProblem[], validate: ValidateFunction<RawScenario>): readonly SchemaProblem[] {
  const typos = problems.filter((p) => p.typo !== undefined);
  if (typos.length === 0) return problems;
  const fixed: unknown = structuredClone(data);
  for (const { path, typo } of typos) {
    const parent = memberAt(fixed, path.slice(0, -1));
    if (typo === undefined || parent === undefined || Object.hasOwn(parent, typo.near)) continue;
    parent[typo.near] = parent[typo.key];
    delete parent[typo.key];
  }
  if (validate(fixed)) return typos;
  const remaining = new Set(usefulErrors(validate.errors ?? []).map((p) => `${yamlPath(p.path)}\u0000${p.message}`));
  return problems.filter((p) => p.typo !== undefined || remaining.has(`${yamlPath(p.path)}\u0000${p.message}`));
}

function memberAt(data: unknown, path: DocPath): Record<string, unknown> | undefined {
  let node: unknown = data;
  for (const seg of path) {
    if (Array.isArray(node) && typeof seg === 'number') {
      const items: readonly unknown[] = node;
      node = items[seg];
    } else if (isRecord(node) && typeof seg === 'string') node = node[seg];
    else return undefined;
  }
  return isRecord(node) ? node : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Keeps what a person can act on: a combinator that carries an `x-message` speaks for its branches
 * (matched by schema path, so such branches are written inline in the schema, not by $ref),
 * `if` branches and property-name errors are folded into one line each.
 */
function usefulErrors(errors: readonly ErrorObject[]): SchemaProblem[] {
  const dropped = new Set<ErrorObject>();
  const messages = new Map<ErrorObject, string>();
  for (const e of errors) {
    const custom = xMessage(e.parentSchema);
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf') {
      if (custom === undefined) continue;
      messages.set(e, custom);
      for (const o of errors) if (o !== e && o.schemaPath.startsWith(`${e.schemaPath}/`)) dropped.add(o);
    } else if (e.keyword === 'if') {
      const parent = e.schemaPath.slice(0, -'/if'.length);
      if (custom !== undefined) messages.set(e, custom);
      else dropped.add(e);
      if (custom !== undefined) for (const o of errors) if (/\/(then|else)\//.test(o.schemaPath.slice(parent.length)) && o.schemaPath.startsWith(parent)) dropped.add(o);
    } else if (e.keyword === 'not' && custom !== undefined) {
      messages.set(e, custom);
    } else if (e.keyword === 'pattern' && custom !== undefined) {
      messages.set(e, e.propertyName === undefined ? `${custom}, got ${shown(e.data)}` : `name '${e.propertyName}' ${custom}`);
    } else if (e.keyword === 'propertyNames') {
      dropped.add(e); // the inner error names the property
    }
  }
  return errors.filter((e) => !dropped.has(e)).map((e) => toProblem(e, messages.get(e)));
}

function toProblem(e: ErrorObject, custom: string | undefined): SchemaProblem {
  const path = pointerPath(e.instancePath);
  if (custom !== undefined) return { path: e.propertyName === undefined ? path : [...path, e.propertyName], message: custom };
  const params: Record<string, unknown> = e.params;
  if (e.propertyName !== undefined) return { path: [...path, e.propertyName], message: `name '${e.propertyName}' ${e.message ?? 'is not allowed'}` };
  switch (e.keyword) {
    case 'required':
      return { path, message: `missing member '${String(params['missingProperty'])}'` };
    case 'additionalProperties': {
      const extra = String(params['additionalProperty']);
      const allowed = allowedMembers(e.parentSchema);
      const near = suggest(extra, allowed);
      if (near !== undefined) return { path: [...path, extra], message: `unknown key '${extra}' (did you mean '${near}'?)`, typo: { key: extra, near } };
      return { path: [...path, extra], message: `unknown key '${extra}'${allowed.length === 0 ? '' : ` (allowed: ${allowed.join(', ')})`}` };
    }
    case 'enum':
      return { path, message: `must be one of ${JSON.stringify(params['allowedValues'])}, got ${shown(e.data)}` };
    case 'dependentRequired':
      return { path, message: `'${String(params['property'])}' needs '${String(params['missingProperty'])}' beside it` };
    default:
      return { path, message: `${e.message ?? 'is invalid'}${isScalarData(e.data) ? `, got ${shown(e.data)}` : ''}` };
  }
}

function xMessage(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || !('x-message' in schema)) return undefined;
  const m: unknown = schema['x-message'];
  return typeof m === 'string' ? m : undefined;
}

function allowedMembers(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null || !('properties' in schema)) return [];
  const props: unknown = schema.properties;
  return typeof props === 'object' && props !== null ? Object.keys(props) : [];
}

const isScalarData = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const shown = (v: unknown): string => (isScalarData(v) ? JSON.stringify(v) : Array.isArray(v) ? 'a list' : `a ${typeof v}`);
