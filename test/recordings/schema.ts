/** ajv validators of the fixture schemas, and the rule ids of docs/rule-ids.md, for the fixture tests. */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { parseFixture, type Fixture } from '../../src/recordings/format.js';

const root = new URL('../../', import.meta.url);

function compile(file: string): ValidateFunction {
  const schema: unknown = JSON.parse(readFileSync(new URL(file, root), 'utf8'));
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new Error(`${file} is not a schema object`);
  return new Ajv2020({ allErrors: true, strict: true }).compile(schema);
}

export const validateFixture = compile('schemas/fixture.schema.json');
export const validateIndex = compile('schemas/fixtures-index.schema.json');

/** Every rule id the document lists (`- \`id\` level §...`). */
export const DOCUMENTED_RULE_IDS: ReadonlySet<string> = new Set([...readFileSync(new URL('docs/rule-ids.md', root), 'utf8').matchAll(/^- `([a-z0-9.-]+)`/gm)].map((m) => m[1] ?? ''));

export const COMMITTED_FIXTURES = new URL('fixtures/', root);

/** A fixture file's text as a Fixture, through the format's own guard (no casts of parsed JSON). */
export function readFixture(text: string | undefined): Fixture {
  const parsed = parseFixture(JSON.parse(text ?? 'null'));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

export const list = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);
