/** The OpenAPI 3.1 document is generated from the route and resource tables: every route is in it, every $ref resolves. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { NO_DEVIATIONS } from '../../src/engine/deviations.js';
import { openApiDocument } from '../../src/sim/openapi.js';
import { buildRouter } from '../../src/sim/routes.js';
import { listResources } from '../../src/store/resources.js';
import { at, harness, profileBody, profilePath } from './helpers.js';

const doc = openApiDocument();
const toPath = (template: string) => template.replace(/:([A-Za-z_]+)/g, '{$1}');
const objectAt = (path: string): Record<string, unknown> => {
  const v = at(doc, path);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`no object at ${path}`);
  return Object.fromEntries(Object.entries(v));
};
const pathItem = (path: string): Record<string, unknown> => {
  const paths = objectAt('paths');
  const item = paths[path];
  if (typeof item !== 'object' || item === null) throw new Error(`no path ${path}`);
  return Object.fromEntries(Object.entries(item));
};

function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

describe('openApiDocument', () => {
  it('is OpenAPI 3.1 with a bearer security scheme applied by default', () => {
    expect(at(doc, 'openapi')).toBe('3.1.0');
    expect(at(doc, 'components.securitySchemes.bearerAuth')).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(at(doc, 'security')).toEqual([{ bearerAuth: [] }]);
  });

  it('has every route of the route table, with its path parameters', () => {
    for (const { method, template } of buildRouter(NO_DEVIATIONS).entries()) {
      const item = pathItem(toPath(template));
      expect(item[method.toLowerCase()], `${method} ${template}`).toBeTypeOf('object');
      const names = (template.match(/:([A-Za-z_]+)/g) ?? []).map((p) => p.slice(1));
      const params = Array.isArray(item['parameters']) ? item['parameters'] : [];
      expect(params.map((p: unknown) => at(p, 'name'))).toEqual(names);
    }
  });

  it('every list path takes page[limit], page[offset], sort (with - forms) and filter', () => {
    for (const resource of listResources) {
      for (const template of resource.paths) {
        const params = at(pathItem(toPath(template)), 'get.parameters');
        expect(params).toEqual([
          { $ref: '#/components/parameters/PageLimit' },
          { $ref: '#/components/parameters/PageOffset' },
          expect.objectContaining({ name: 'sort', in: 'query', schema: { type: 'string', enum: resource.sorts.flatMap((s) => [s, `-${s}`]) } }),
          expect.objectContaining({ name: 'filter', in: 'query' }),
        ]);
      }
    }
    expect(at(doc, 'components.parameters.PageLimit')).toMatchObject({ name: 'page[limit]', in: 'query' });
    expect(at(doc, 'components.parameters.PageOffset')).toMatchObject({ name: 'page[offset]', in: 'query' });
  });

  it('the create operation has its body schema (8-character password, both type forms) and a 201', () => {
    const create = at(pathItem('/v2/authentication-realms/{realm}/user-authentication-info/{uai}/user-authentication-password-profile-info'), 'post');
    expect(at(create, 'requestBody.content.application/json.schema')).toEqual({ $ref: '#/components/schemas/ProfileInfoCreate' });
    expect(at(doc, 'components.schemas.ProfileInfoCreate.properties.data.required')).toEqual(['type', 'password_profile_id', 'username', 'password']);
    expect(at(doc, 'components.schemas.ProfileInfoCreate.properties.data.properties.password.minLength')).toBe(8);
    expect(at(doc, 'components.schemas.ProfileInfoCreate.properties.data.properties.type.enum')).toEqual(['user_authentication_password_profile_info', 'user-authentication-password-profile-info']);
    expect(at(create, 'responses.201')).toBeTypeOf('object');
    expect(at(create, 'responses.400')).toEqual({ $ref: '#/components/responses/E400' });
  });

  it('the error schema is the errors array', () => {
    expect(at(doc, 'components.schemas.Error.required')).toEqual(['errors']);
    expect(at(doc, 'components.schemas.Error.properties.errors.items.required')).toEqual(['status', 'title']);
  });

  it('the token endpoint is documented without bearer security, form-encoded', () => {
    const post = at(pathItem('/oauth/access_token'), 'post');
    expect(at(post, 'security')).toEqual([]);
    expect(at(post, 'requestBody.content.application/x-www-form-urlencoded.schema.properties.grant_type.enum')).toEqual(['client_credentials', 'implicit']);
  });

  it('admin routes need the admin token', () => {
    expect(at(pathItem('/__sim/reset'), 'post.security')).toEqual([{ adminToken: [] }]);
  });

  it('every $ref resolves and operation ids are unique', () => {
    for (const r of refs(doc)) {
      expect(r.startsWith('#/')).toBe(true);
      expect(at(doc, r.slice(2).split('/').join('.')), r).toBeDefined();
    }
    const ids: unknown[] = [];
    for (const item of Object.values(objectAt('paths'))) for (const op of Object.values(item as object)) if (typeof op === 'object' && op !== null && 'operationId' in op) ids.push(op.operationId);
    expect(ids.length).toBeGreaterThan(40);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is deterministic', () => {
    expect(JSON.stringify(openApiDocument())).toBe(JSON.stringify(doc));
  });
});

describe('the document describes what the simulator answers', () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(doc, 'doc');
  const pointer = (path: string, method: string, status: string) => `doc#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${status}/content/application~1json/schema`;
  const errorSchema = ajv.getSchema('doc#/components/schemas/Error');

  it('the 200 answer of every list route matches its schema', () => {
    const h = harness();
    for (const resource of listResources) {
      for (const template of resource.paths) {
        const res = h.get(template.replace(/:([A-Za-z_]+)/g, 'x-$1'));
        const validate = ajv.getSchema(pointer(toPath(template), 'get', '200'));
        expect(validate, template).toBeDefined();
        expect(validate?.(res.json), `${template}: ${JSON.stringify(validate?.errors)}`).toBe(true);
        expect(validate?.({ ...(res.json as object), meta: { page: { limit: 0 } } }), 'the schema can fail').toBe(false);
      }
    }
  });

  it('the create, get, settings and token answers match theirs; errors match the Error schema', () => {
    const h = harness();
    const createPath = '/v2/authentication-realms/{realm}/user-authentication-info/{uai}/user-authentication-password-profile-info';
    const made = h.post(profilePath(h.ids), profileBody(h.ids));
    const check = (path: string, method: string, status: string, json: unknown) => {
      const validate = ajv.getSchema(pointer(path, method, status));
      expect(validate?.(json), `${method} ${path}: ${JSON.stringify(validate?.errors)}`).toBe(true);
    };
    check(createPath, 'post', '201', made.json);
    check(`${createPath}/{id}`, 'get', '200', h.get(`${profilePath(h.ids)}/${String(at(made.json, 'data.id'))}`).json);
    check('/v2/settings', 'get', '200', h.get('/v2/settings').json);
    check(
      '/oauth/access_token',
      'post',
      '200',
      h.call('POST', '/oauth/access_token', { token: null, body: 'grant_type=implicit&client_id=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }).json,
    );
    for (const bad of [h.post(profilePath(h.ids), profileBody(h.ids, { password: 'short' })), h.get('/nope'), h.get('/v2/accounts', { token: null })]) {
      expect(errorSchema?.(bad.json)).toBe(true);
    }
  });
});
