/**
 * An OpenAPI 3.1 document of the simulated surface, generated from the route table (routes.ts) and the
 * resource table (store/resources.ts), so it cannot drift from what the simulator serves. Pure: the
 * same input gives the same document.
 */
import { NO_DEVIATIONS } from '../engine/deviations.js';
import { DEFAULT_PAGE_LENGTH, MAX_PAGE_LENGTH, OFFSET_LIMIT } from '../engine/pagination.js';
import type { ResourceDef } from '../store/resources.js';
import { components, ref, schemaName, type Json } from './openapi-components.js';
import { buildRouter, type RouteSpec } from './routes.js';
import { DEFAULT_BASE_URL } from './options.js';

export interface OpenApiOptions {
  readonly serverUrl?: string;
  readonly version?: string;
}

const errorResponses = (...statuses: number[]): Json => Object.fromEntries(statuses.map((s) => [String(s), ref('responses', `E${s}`)]));

/** `/v2/x/:id` → `/v2/x/{id}` and the path parameters. */
function openApiPath(template: string): { path: string; params: Json[] } {
  const params: Json[] = [];
  const path = template.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    params.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    return `{${name}}`;
  });
  return { path, params };
}

/** `GET /v2/accounts/{id}` → `getV2AccountsId`: unique because method and path are. */
function operationId(method: string, path: string): string {
  return method.toLowerCase() + path.replace(/[^A-Za-z0-9]+([A-Za-z0-9])?/g, (_m, c: string | undefined) => (c === undefined ? '' : c.toUpperCase()));
}

const ADMIN_SUMMARIES: Readonly<Record<string, string>> = {
  'GET /__sim/state': 'Describe the simulator: seed, base URL, seeded ids, projects, the record budget',
  'POST /__sim/reset': 'Forget every write and setting of every project',
  'POST /__sim/seed': 'Reseed: {seed?, accounts?, counts?, profile?, burst?}',
  'POST /__sim/clock': "Advance a project's virtual clock: {advance_ms} (?client_id=)",
  'PUT /__sim/settings': "Raise a project's soft offset limit: {page_offset_limit} (?client_id=)",
  'PUT /__sim/adversity': "Replace a project's adversarial behaviours: fields not given return to their defaults (?client_id=)",
  'PATCH /__sim/adversity': "Change some of a project's adversarial behaviours, keeping the others (?client_id=)",
  'GET /__sim/snapshot': "Each project's changes over the seed (passwords only as salted hashes)",
  'POST /__sim/restore': 'Restore a snapshot (up to 500 MiB, within the record budget; "drop_projects": true to drop projects it lacks)',
  'GET /__sim/requests': 'The request journal, newest last, with what each client got (times, injected latency, fault): ?method=, ?path= (prefix), ?status=, ?client=, ?since= (seq), ?limit=',
};

function listParameters(resource: ResourceDef): Json[] {
  const sorts = resource.sorts.flatMap((s) => [s, `-${s}`]);
  const filters = Object.entries(resource.filter)
    .map(([field, spec]) => `\`${field}\` (${spec.ops.join(' ')})`)
    .join(', ');
  return [
    ref('parameters', 'PageLimit'),
    ref('parameters', 'PageOffset'),
    { name: 'sort', in: 'query', required: false, description: 'Ascending attribute, or descending with `-`; ties are ordered by id.', schema: { type: 'string', enum: sorts } },
    {
      name: 'filter',
      in: 'query',
      required: false,
      description: `\`op(attribute,value)\` clauses joined by \`:\` (AND), at most 10 and 8 KB. Attributes and operators: ${filters}.`,
      schema: { type: 'string' },
    },
  ];
}

function listOperation(resource: ResourceDef): Json {
  const hard = resource.offsetLimit === 'hard';
  return {
    summary: `List ${resource.name}`,
    description: `Paginated (page length ${DEFAULT_PAGE_LENGTH} by default, at most ${MAX_PAGE_LENGTH}). Offset limit ${OFFSET_LIMIT}: ${hard ? 'hard' : "soft (the project's page_offset_limit)"}.`,
    parameters: listParameters(resource),
    responses: {
      '200': {
        description: 'A page',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['data', 'meta', 'links'],
              properties: { data: { type: 'array', items: ref('schemas', schemaName(resource)) }, meta: ref('schemas', 'PageMeta'), links: ref('schemas', 'PageLinks') },
            },
          },
        },
      },
      ...errorResponses(400, 401, 404, 429),
    },
  };
}

const one = (schema: Json): Json => ({ 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: schema } } } });

function resourceOperation(spec: RouteSpec, method: string, template: string): Json | undefined {
  if (spec.op === 'token') return tokenOperation();
  const r = spec.resource;
  if (spec.op === 'list' && r) return undefined; // handled per path template
  const item = r ? ref('schemas', schemaName(r)) : undefined;
  const isProfile = r?.name === 'user-authentication-password-profile-info';
  const body = isProfile ? ref('schemas', spec.op === 'create' ? 'ProfileInfoCreate' : 'ProfileInfoUpdate') : ref('schemas', 'AccountWrite');
  switch (spec.op) {
    case 'create':
      return {
        summary: isProfile ? 'Create a user authentication password profile (§4.1); a trailing slash on the path is accepted too' : `Create ${r?.name ?? ''}`,
        requestBody: { required: true, content: { 'application/json': { schema: body } } },
        responses: { '201': { description: 'Created', content: one(item ?? {}) }, ...errorResponses(400, 401, 403, 404, 413, 429) },
      };
    case 'get':
      return { summary: `Get one ${r?.name ?? ''}`, responses: { '200': { description: 'The record', content: one(item ?? {}) }, ...errorResponses(401, 404, 429) } };
    case 'update':
      return {
        summary: `Update ${r?.name ?? ''}`,
        requestBody: { required: true, content: { 'application/json': { schema: body } } },
        responses: { '200': { description: 'The changed record', content: one(item ?? {}) }, ...errorResponses(400, 401, 403, 404, 413, 429) },
      };
    case 'delete':
      return { summary: `Delete ${r?.name ?? ''}`, responses: { '204': { description: 'Deleted, empty body' }, ...errorResponses(401, 403, 404, 429) } };
    case 'settings':
      return method === 'GET'
        ? { summary: 'Project settings', responses: { '200': { description: 'Settings', content: one(ref('schemas', 'Settings')) }, ...errorResponses(401, 429) } }
        : {
            summary: 'Change page_length for this project',
            requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: ref('schemas', 'SettingsUpdate') } } } } },
            responses: { '200': { description: 'Settings', content: one(ref('schemas', 'Settings')) }, ...errorResponses(400, 401, 403, 429) },
          };
    case 'admin':
      return {
        summary: ADMIN_SUMMARIES[`${method} ${template}`] ?? `Simulator admin: ${method} ${template}`,
        tags: ['simulator admin'],
        security: [{ adminToken: [] }],
        requestBody: method === 'GET' ? undefined : { required: false, content: { 'application/json': { schema: { type: 'object' } } } },
        responses: { '200': { description: 'Done', content: { 'application/json': { schema: { type: 'object' } } } }, ...errorResponses(400, 401) },
      };
    default:
      return undefined;
  }
}

function tokenOperation(): Json {
  return {
    summary: 'Get an access token (client credentials: read-write; implicit: read-only)',
    operationId: 'accessToken',
    security: [],
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            required: ['grant_type', 'client_id'],
            properties: { grant_type: { enum: ['client_credentials', 'implicit'] }, client_id: { type: 'string' }, client_secret: { type: 'string' } },
          },
        },
      },
    },
    responses: {
      '200': {
        description: 'A bearer token (not wrapped in data)',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['access_token', 'token_type', 'expires', 'expires_in', 'identifier'],
              properties: {
                access_token: { type: 'string' },
                token_type: { const: 'Bearer' },
                expires: { type: 'integer', description: 'Unix seconds' },
                expires_in: { type: 'integer' },
                identifier: { enum: ['client_credentials', 'implicit'] },
              },
            },
          },
        },
      },
      ...errorResponses(400, 401),
    },
  };
}

export function openApiDocument(options: OpenApiOptions = {}): Json {
  const paths: Record<string, Json> = {};
  const resources = new Map<string, ResourceDef>();
  for (const { method, template, handler: spec } of buildRouter(NO_DEVIATIONS).entries()) {
    const { path, params } = openApiPath(template);
    if (spec.op !== 'token' && spec.resource) resources.set(spec.resource.name, spec.resource);
    const operation = spec.op === 'list' && spec.resource ? listOperation(spec.resource) : resourceOperation(spec, method, template);
    if (operation === undefined) continue;
    operation['operationId'] = operationId(method, path);
    const item: Json = paths[path] ?? {};
    if (params.length > 0) item['parameters'] = params;
    item[method.toLowerCase()] = JSON.parse(JSON.stringify(operation)) as unknown; // drops undefined members
    paths[path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'commerce-sim: the simulated Commerce API',
      version: options.version ?? '0.1.0',
      description: 'User authentication password profile creation and the pagination convention of the Commerce API, as served by commerce-sim.',
    },
    servers: [{ url: options.serverUrl ?? DEFAULT_BASE_URL }],
    security: [{ bearerAuth: [] }],
    paths,
    components: components([...resources.values()].sort((a, b) => a.name.localeCompare(b.name))),
  };
}
