/** Versioning (commerce-api.md §9): resources under /v2, list item self links with /v2. */
import type { Exchange } from '../port.js';
import { asList, at, describe, isAsideStatus, isCreatePath, judgeEach, listGets, methodIs, pathOf, readLink, sentWithoutAuth } from './inspect.js';
import { parentOf } from './profile-request.js';
import { fail, pass, skip, type CheckContext, type Outcome, type Rule } from './rule.js';

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
  onTraffic: { scope: 'exchange', kinds: ['read', 'create'] },
  quote: 'Resources sit under the path prefix /v2. Resource paths are prefixed with /v2.',
  statement: 'resources are served under /v2 (/v2/accounts, /v2/orders, /v2/files, the create path).',
  check: (ctx) =>
    // judges: GETs of /v2/accounts|orders|files and creates on the vars' realm/uai: not 404
    judgeEach(ctx.exchanges, 'no request to a /v2 resource', (ex): Outcome => {
      if (!mustBeRouted(ex, ctx)) return skip('not judged');
      return ex.response.status === 404 ? fail(`${describe(ex)}: not served under /v2`, 'routed (not 404)', 404) : pass;
    }),
};

const itemLinksV2: Rule = {
  id: 'versioning.item-links-v2',
  family: 'versioning',
  section: 'API-NOTES "The password profile record"',
  level: 'assumed',
  onTraffic: { scope: 'exchange', kinds: ['read'] },
  statement: "list items carry links.self with the /v2 path (only the create response's self link omits it).",
  check: (ctx) =>
    // judges: every list GET answering 200 under /v2: item links.self URLs, where given, have a /v2 segment
    judgeEach(listGets(ctx), 'no list read under /v2', (ex): Outcome => {
      if (!pathOf(ex.request.url).startsWith('/v2/')) return skip('not under /v2');
      const bad = selfWithoutV2(ex);
      return bad === undefined ? pass : fail(`${describe(ex)}: a list item's links.self has no /v2`, 'a path under /v2', bad);
    }),
};

export const versioningRules: readonly Rule[] = [v2Prefix, itemLinksV2];
