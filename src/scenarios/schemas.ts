/**
 * The JSON Schemas a scenario's `expect.schema` names: one of the response schemas shipped with the tool
 * (schemas/responses/), or the author's own, written inline. Each is compiled once.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type SchemaObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { ResponseSchemaName, SchemaSpec } from './format.js';

let ajv: Ajv2020 | undefined;
// Inline schemas: not strict (an author's schema may use keywords and formats ajv does not know).
let lenient: Ajv2020 | undefined;
const named = new Map<ResponseSchemaName, ValidateFunction>();
const inline = new WeakMap<object, ValidateFunction>();

function namedValidator(name: ResponseSchemaName): ValidateFunction {
  const hit = named.get(name);
  if (hit !== undefined) return hit;
  const schema: unknown = JSON.parse(readFileSync(new URL(`../../schemas/responses/${name}.schema.json`, import.meta.url), 'utf8'));
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new Error(`schemas/responses/${name}.schema.json is not a JSON Schema object`);
  const object: SchemaObject = schema;
  ajv ??= new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
  const validate = ajv.compile(object);
  named.set(name, validate);
  return validate;
}

function inlineValidator(schema: Readonly<Record<string, unknown>>): ValidateFunction {
  const hit = inline.get(schema);
  if (hit !== undefined) return hit;
  lenient ??= new Ajv2020({ allErrors: true, strict: false });
  const validate = lenient.compile(schema as SchemaObject);
  inline.set(schema, validate);
  return validate;
}

export function schemaValidator(spec: SchemaSpec): ValidateFunction {
  return spec.kind === 'named' ? namedValidator(spec.name) : inlineValidator(spec.schema);
}

/** How a report names the schema: its name, or `(inline)`. */
export const schemaLabel = (spec: SchemaSpec): string => (spec.kind === 'named' ? spec.name : '(inline)');

/** Why an author's schema cannot be compiled, or undefined: the loader says so with the scenario's line. */
export function inlineSchemaProblem(schema: Readonly<Record<string, unknown>>): string | undefined {
  try {
    inlineValidator(schema);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
