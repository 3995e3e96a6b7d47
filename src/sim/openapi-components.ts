/** The `components` of the OpenAPI document (src/sim/openapi.ts): schemas, parameters, error responses. */
import { MIN_PASSWORD_LENGTH, PROFILE_INFO_TYPE, PROFILE_INFO_TYPE_HYPHEN } from '../engine/password-profile-validation.js';
import { MAX_PAGE_LENGTH } from '../engine/pagination.js';
import type { ResourceDef } from '../store/resources.js';

export type Json = Record<string, unknown>;

export const ref = (kind: string, name: string): Json => ({ $ref: `#/components/${kind}/${name}` });

const ERROR_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad request: validation, malformed JSON, page or filter parameters',
  401: 'Missing or invalid bearer token',
  403: 'Read-only (implicit) token on a write',
  404: 'Unknown route or resource',
  405: 'Known path, other method (Allow header lists the methods)',
  413: 'Body over 1 MiB',
  429: 'Rate limited (Retry-After)',
};

const nullableString = { type: ['string', 'null'] };
const timestamp = { type: 'string', format: 'date-time', description: 'ISO 8601 with milliseconds and Z' };
const timestamps = { type: 'object', required: ['created_at', 'updated_at'], properties: { created_at: timestamp, updated_at: timestamp } };

export function schemaName(resource: ResourceDef): string {
  return resource.name.replace(/(^|-)([a-z])/g, (_m, _d: string, c: string) => c.toUpperCase());
}

/** A list item of a resource, as the serializer writes it. */
function itemSchema(resource: ResourceDef): Json {
  const properties: Json = { id: { type: 'string' }, type: { const: resource.type } };
  for (const attr of resource.attributes) properties[attr] = nullableString;
  if (resource.name === 'accounts') properties['parent_id'] = nullableString;
  properties['meta'] = resource.timestamps === 'meta' ? timestamps : { type: 'object', properties: { timestamps } };
  properties['links'] = { type: 'object', properties: { self: { type: 'string', format: 'uri' } } };
  return { type: 'object', required: ['id', 'type', 'meta'], properties };
}

export function components(resources: readonly ResourceDef[]): Json {
  const stringField = { type: 'string', minLength: 1 };
  const schemas: Json = {
    Error: {
      type: 'object',
      required: ['errors'],
      properties: {
        errors: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['status', 'title'],
            properties: { status: { type: ['integer', 'string'] }, title: { type: 'string' }, detail: { type: 'string' }, source: { type: 'string' } },
          },
        },
      },
    },
    PageMeta: {
      type: 'object',
      required: ['page', 'results'],
      properties: {
        page: {
          type: 'object',
          required: ['limit', 'offset', 'current', 'total'],
          properties: {
            limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LENGTH },
            offset: { type: 'integer', minimum: 0 },
            current: { type: 'integer', minimum: 1 },
            total: { type: 'integer', minimum: 0 },
          },
        },
        results: { type: 'object', required: ['total'], properties: { total: { type: 'integer', minimum: 0 } } },
      },
    },
    PageLinks: {
      type: 'object',
      required: ['current', 'first', 'last', 'next', 'prev'],
      properties: Object.fromEntries(['current', 'first', 'last', 'next', 'prev'].map((k) => [k, { type: ['string', 'null'], format: 'uri' }])),
    },
    ProfileInfoCreate: {
      type: 'object',
      required: ['data'],
      properties: {
        data: {
          type: 'object',
          required: ['type', 'password_profile_id', 'username', 'password'],
          properties: {
            type: { enum: [PROFILE_INFO_TYPE, PROFILE_INFO_TYPE_HYPHEN] },
            password_profile_id: stringField,
            username: stringField,
            password: { type: 'string', minLength: MIN_PASSWORD_LENGTH, writeOnly: true },
          },
        },
      },
    },
    ProfileInfoUpdate: {
      type: 'object',
      required: ['data'],
      properties: {
        data: {
          type: 'object',
          required: ['type'],
          properties: {
            type: { enum: [PROFILE_INFO_TYPE, PROFILE_INFO_TYPE_HYPHEN] },
            password_profile_id: stringField,
            username: stringField,
            password: { type: 'string', minLength: MIN_PASSWORD_LENGTH, writeOnly: true },
          },
        },
      },
    },
    AccountWrite: {
      type: 'object',
      required: ['data'],
      properties: {
        data: { type: 'object', required: ['type'], properties: { type: { const: 'account' }, name: stringField, legal_name: stringField, registration_id: stringField, external_ref: stringField } },
      },
    },
    Settings: {
      type: 'object',
      properties: { type: { const: 'settings' }, page_length: { type: 'integer' }, page_offset_limit: { type: 'integer', readOnly: true }, filter_limit: { type: 'integer', readOnly: true } },
    },
    SettingsUpdate: { type: 'object', properties: { type: { const: 'settings' }, page_length: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LENGTH } } },
  };
  for (const r of resources) schemas[schemaName(r)] = itemSchema(r);
  return {
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'A token from POST /oauth/access_token' },
      adminToken: { type: 'http', scheme: 'bearer', description: 'The admin token printed by `commerce-sim serve`' },
    },
    parameters: {
      PageLimit: {
        name: 'page[limit]',
        in: 'query',
        required: false,
        description: `Records per page; above ${MAX_PAGE_LENGTH} is clamped to ${MAX_PAGE_LENGTH}.`,
        schema: { type: 'integer', minimum: 1 },
      },
      PageOffset: { name: 'page[offset]', in: 'query', required: false, description: 'Records to skip, zero-based.', schema: { type: 'integer', minimum: 0 } },
    },
    responses: Object.fromEntries(Object.entries(ERROR_TITLES).map(([s, d]) => [`E${s}`, { description: d, content: { 'application/json': { schema: ref('schemas', 'Error') } } }])),
    schemas,
  };
}
