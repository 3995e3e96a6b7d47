/** Route matching over `:param` templates; 404 for unknown paths, 405 (with Allow) for known paths and other methods. */

interface RouteMatch<H> {
  readonly kind: 'match';
  readonly handler: H;
  readonly params: Readonly<Record<string, string>>;
}
export type RouteResult<H> = RouteMatch<H> | { readonly kind: 'not-found' } | { readonly kind: 'method-not-allowed'; readonly allow: readonly string[] };

export interface RouteEntry<H> {
  readonly method: string;
  readonly template: string;
  readonly handler: H;
}

interface Compiled<H> extends RouteEntry<H> {
  readonly segments: readonly string[];
}

export class Router<H> {
  private readonly routes: Compiled<H>[] = [];
  /** Templates without parameters, by `METHOD path`: most requests never walk the table. */
  private readonly exact = new Map<string, H>();

  add(method: string, template: string, handler: H): this {
    this.routes.push({ method, template, handler, segments: split(template) });
    if (!template.includes(':') && !this.exact.has(`${method} ${template}`)) this.exact.set(`${method} ${template}`, handler);
    return this;
  }

  /** Every route in the order added (the OpenAPI document is generated from them). */
  entries(): readonly RouteEntry<H>[] {
    return this.routes.map(({ method, template, handler }) => ({ method, template, handler }));
  }

  match(method: string, path: string): RouteResult<H> {
    const hit = this.exact.get(`${method} ${path}`);
    if (hit !== undefined) return { kind: 'match', handler: hit, params: {} };
    const segments = split(path);
    const allow: string[] = [];
    for (const route of this.routes) {
      const params = bind(route.segments, segments);
      if (params === undefined) continue;
      if (route.method === method) return { kind: 'match', handler: route.handler, params };
      allow.push(route.method);
    }
    return allow.length > 0 ? { kind: 'method-not-allowed', allow: [...new Set(allow)] } : { kind: 'not-found' };
  }
}

function split(path: string): string[] {
  return path.split('/').slice(1);
}

function bind(template: readonly string[], actual: readonly string[]): Record<string, string> | undefined {
  if (template.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const t = template[i] as string;
    const a = actual[i] as string;
    if (t.startsWith(':')) {
      if (a.length === 0) return undefined;
      params[t.slice(1)] = a;
    } else if (t !== a) return undefined;
  }
  return params;
}
