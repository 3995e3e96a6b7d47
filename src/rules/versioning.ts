/** Versioning (commerce-api.md §9): resources under /v2, list item self links with /v2. */
import type { Exchange } from '../target/types.js';
import { asList, at, describe, isAsideStatus, isCreatePath, judgeEach, listGets, methodIs, pathOf, readLink, sentWithoutAuth } from './inspect.js';
import { parentOf } from './profile-request.js';
import { fail, pass, skip, type CheckContext, type Outcome, type Rule } from './types.js';

/** A request whose 404 would mean "not routed": GET of /v2/accounts, /v2/orders, /v2/files, or a create on a known parent. */
function mustBeRouted(ex: Exchange, ctx: CheckContext): boolean {
  const path = pathOf(ex.request.url);
  if (sentWithoutAuth(ex) || isAsideStatus(ex.response.status)) return false;
  if (methodIs(ex, 'GET') && /^\/v2\/(accounts|orders|files)\/?$/.test(path)) return true;
  return methodIs(ex, 'POST') && isCreatePath(path) && parentOf(ex, ctx.vars) === 'known';
}

/**
 * `http(s)://host[:port]/v2/segment/...` with plain segments (no dots, escapes, query): its URL path
 * is the text after the host, under /v2. Lists carry up to 100 self links and the page-arithmetic
 * property reads lists in a hot loop, so such links are taken as they are instead of parsed.
 */
const PLAIN_V2_LINK = /^https?:\/\/[\w.-]+(?::\d+)?\/v2(?:\/[\w-]+)+$/i;

/** The first list item whose links.self is a URL without a /v2 segment. */
function selfWithoutV2(ex: Exchange): string | undefined {
  for (const item of asList(ex.json)?.data ?? []) {
    const raw = at(item, 'links', 'self');
    if (typeof raw === 'string' && PLAIN_V2_LINK.test(raw)) continue;
    const link = readLink(at(item, 'links'), 'self');
    if (link.kind === 'url' && !link.url.pathname.split('/').includes('v2')) return link.url.pathname;
  }
  return undefined;
}

const v2Prefix: Rule = {
  id: 'versioning.v2-prefix',
  family: 'versioning',
  section: '§9',
  level: 'documented',
  quote: "Resources sit under the path prefix /v2. Resource paths are prefixed with /v2.",
  statement:
    'resources are served under /v2 (/v2/accounts, /v2/orders, /v2/files, the create path), and list item self links carry /v2.',
  check: (ctx) => {
    // judges: GETs of /v2/accounts|orders|files and creates on the vars' realm/uai: not 404; every list GET answering 200 under /v2: item links.self URLs have a /v2 segment
    const lists = new Set(listGets(ctx));
    return judgeEach(ctx.exchanges, 'no request to a /v2 resource', (ex): Outcome => {
      if (mustBeRouted(ex, ctx) && ex.response.status === 404) return fail(`${describe(ex)}: not served under /v2`, 'routed (not 404)', 404);
      if (lists.has(ex) && pathOf(ex.request.url).startsWith('/v2/')) {
        const bad = selfWithoutV2(ex);
        return bad === undefined ? pass : fail(`${describe(ex)}: a list item's links.self has no /v2`, 'a path under /v2', bad);
      }
      return mustBeRouted(ex, ctx) ? pass : skip('not judged');
    });
  },
};

export const versioningRules: readonly Rule[] = [v2Prefix];
