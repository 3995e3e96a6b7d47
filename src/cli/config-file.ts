/**
 * A config file's text (YAML, or JSON, which YAML reads too) to its settings, or one usage error in
 * plain words at the member's line: `commerce-sim.config.yaml:4: vars.realm_id: must be a string, a
 * number or true/false`. Loaded with a config file only: it brings the YAML parser and ajv.
 */
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { LineCounter, parseDocument } from 'yaml';
import { didYouMean } from '../suggest.js';
import { locate, yamlPath, type DocPath } from '../yaml-locate.js';
import { UsageError } from './io.js';
import { VAR_NAME, type ConfigFile } from './config.js';

interface RawConfig {
  vars?: Record<string, string | number | boolean>;
  token_env?: string;
  client_id?: string;
  client_secret_env?: string;
  base_url?: string;
}

const KEYS = ['vars', 'token_env', 'client_id', 'client_secret_env', 'base_url'] as const;

const configSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    vars: {
      type: 'object',
      propertyNames: { pattern: VAR_NAME.source },
      additionalProperties: { type: ['string', 'number', 'boolean'] },
    },
    token_env: { type: 'string', minLength: 1 },
    client_id: { type: 'string', minLength: 1 },
    client_secret_env: { type: 'string', minLength: 1 },
    base_url: { type: 'string', pattern: '^https?://' },
  },
};

/** `label`: the file as errors name it. Throws a UsageError `label:line[:column]: member: what`. */
export function parseConfig(text: string, label: string): ConfigFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, keepSourceTokens: true, prettyErrors: false });
  const syntax = doc.errors[0];
  if (syntax !== undefined) {
    // The parser points at a character: line and column.
    const { line, col } = lineCounter.linePos(syntax.pos[0]);
    throw new UsageError('CLI_USAGE', `${label}:${line}:${col}: ${syntax.message.split('\n')[0] ?? syntax.message}`);
  }
  const validate = new Ajv2020({ allErrors: false, allowUnionTypes: true, verbose: true }).compile<RawConfig>(configSchema);
  const value: unknown = doc.toJS({ maxAliasCount: 100 }) ?? {};
  if (!validate(value)) {
    const problem = plainWords(validate.errors?.[0]);
    // A member is its line (of its key); the document itself, its first.
    const line = lineCounter.linePos(locate(doc, problem.path)).line;
    throw new UsageError('CLI_USAGE', `${label}:${line}: ${problem.path.length === 0 ? '(top level)' : yamlPath(problem.path)}: ${problem.message}`);
  }
  const raw: RawConfig = value;
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw.vars ?? {})) vars[k] = String(v);
  return {
    vars,
    ...(raw.token_env === undefined ? {} : { tokenEnv: raw.token_env }),
    ...(raw.client_id === undefined ? {} : { clientId: raw.client_id }),
    ...(raw.client_secret_env === undefined ? {} : { clientSecretEnv: raw.client_secret_env }),
    ...(raw.base_url === undefined ? {} : { baseUrl: raw.base_url }),
  };
}

interface Problem {
  readonly path: DocPath;
  readonly message: string;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  object: 'a map of name: value',
  'string,number,boolean': 'a string, a number or true/false',
};

/** The validator's first error as a person would say it, at the member it is about. */
function plainWords(e: ErrorObject | undefined): Problem {
  if (e === undefined) return { path: [], message: 'is not a valid config' };
  const path = e.instancePath === '' ? [] : e.instancePath.slice(1).split('/').map(unescapePointer);
  const params: Record<string, unknown> = e.params;
  if (e.propertyName !== undefined) return { path: [...path, e.propertyName], message: `'${e.propertyName}' is not a variable name (letters, digits and _, not starting with __)` };
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params['additionalProperty']);
      const near = didYouMean(key, KEYS);
      return { path: [...path, key], message: `unknown key '${key}'${near === '' ? ` (one of: ${KEYS.join(', ')})` : near}` };
    }
    case 'type': {
      const type = Array.isArray(params['type']) ? params['type'].join(',') : String(params['type']);
      const words = path.length === 0 ? `a map of keys (${KEYS.join(', ')})` : (TYPE_WORDS[type] ?? type);
      return { path, message: `must be ${words}` };
    }
    case 'minLength':
      return { path, message: 'must not be empty' };
    case 'pattern':
      return { path, message: `must be an http:// or https:// URL, got '${String(e.data)}'` };
    default:
      return { path, message: e.message ?? 'is invalid' };
  }
}

const unescapePointer = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');
