/**
 * report.html: one self-contained page (inline CSS, no scripts, no external assets) that opens
 * from a CI artefact: the verdict, then the failures, then the rule × case matrix (sticky rule column and
 * header row, numbered columns with a key of their whole names), with a "failures only" view that is a
 * CSS checkbox, not a script. Every piece of report text goes through escapeHtml; the timing block comes last.
 */
import type { CaseStatus, ExchangeExcerpt, PropertyResult, RunReport } from './model.js';
import { redactedJson, transcript } from './redact.js';
import { findingGroups, reportTitle, trafficHeadline } from './traffic-words.js';
import {
  evidenceOf,
  failingRules,
  failures,
  inconclusives,
  requestLine,
  placesText,
  ruleRef,
  SHOWN_REQUESTS,
  trafficLines,
  deliberateLine,
  unjudgedLabel,
  userChecks,
  verdictReason,
  targetText,
  verdictsByCase,
  type Failure,
} from './summarise.js';

export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

const e = escapeHtml;

export function renderHtml(report: RunReport): string {
  const list = failures(report);
  const verdict = report.summary.verdict;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>commerce-sim report: ${verdict.toUpperCase()}</title>
<style>${CSS}</style>
</head>
<body>
<input type="checkbox" id="failures-only" class="toggle">
${header(report)}
<nav class="view"><label for="failures-only">failures only</label> <span class="stmt">hides passing rules and scenarios; the page needs no script</span> · <a href="#failing-rules">failing rules</a> · <a href="#failures">failures</a> · <a href="#matrix">rules × scenarios</a></nav>
<main>
${failingRulesSection(report, list)}
${failureSection(report, list)}
${trafficSection(report)}
${userCheckSection(report)}
${inconclusiveSection(report)}
${matrix(report, list)}
${propertySection(report.properties)}
${readingsSection(report)}
${skipSection(report)}
</main>
${timing(report)}
</body>
</html>
`;
}

const CSS = `
:root{--inc:#8250df;--inc-bg:#fbefff;--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--skip:#6e7781;--skip-bg:#eaeef2;--warn:#9a6700;--warn-bg:#fff8c5;--line:#d0d7de}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
header{padding:16px 24px}header.pass,header.fail{color:#fff}header.pass{background:var(--pass)}header.fail{background:var(--fail)}
header h1{margin:0 0 4px;font-size:22px}header p{margin:0;opacity:.9}
.counts{display:flex;gap:24px;margin-top:10px;flex-wrap:wrap}.counts div{background:rgba(255,255,255,.15);padding:6px 12px;border-radius:6px}
main,footer{padding:8px 24px}h2{font-size:17px;margin:20px 0 8px}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px;margin:4px 0;white-space:pre-wrap;word-break:break-word;max-height:420px;overflow:auto}pre.failing{max-height:75vh}mark{background:#ffd8b5;color:inherit;outline:1px solid #d4a72c}
.matrix{overflow:auto;max-height:75vh;border:1px solid var(--line);border-radius:6px;background:#fff}
table{border-collapse:separate;border-spacing:0;width:max-content;min-width:100%}
th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
thead th{position:sticky;top:0;background:#f6f8fa;z-index:2;vertical-align:bottom}
th.col{font-weight:500;padding:8px 4px;text-align:center}th.col{min-width:22px}th.col a{color:inherit;text-decoration:none}ol.key{columns:2 420px;font-size:12px;padding-left:32px}ol.key li{break-inside:avoid;margin:1px 0}
th.col.fail{color:var(--fail)}th.col.inconclusive{color:var(--inc)}th.col.skip{color:var(--skip);font-style:italic}
tbody th{position:sticky;left:0;background:#fff;z-index:1;font-weight:normal;max-width:360px}
thead th:first-child{left:0;z-index:3}tbody tr:hover th,tbody tr:hover td{background:#f6f8fa}
.stmt{color:#59636e;font-size:12px}section.passing>details>summary{cursor:pointer}section.passing>details>summary>h2{display:inline}header .stmt{color:inherit;opacity:.85}.badge.evidence{background:#fff8c5;color:#6a4f00}
td.c{text-align:center;padding:4px 6px;min-width:22px}td.c a{color:inherit;text-decoration:none;display:block}
.pass{color:var(--pass);background:var(--pass-bg)}.fail{color:var(--fail);background:var(--fail-bg)}
.skip{color:var(--skip);background:var(--skip-bg)}.inconclusive{color:var(--inc);background:var(--inc-bg)}.warn{color:var(--warn);background:var(--warn-bg)}.none{color:#afb8c1}
.badge{display:inline-block;padding:0 6px;border-radius:10px;font-size:12px;font-weight:600}
details.failure{background:#fff;border:1px solid var(--line);border-left:4px solid var(--fail);border-radius:6px;margin:8px 0;padding:6px 12px}
details.failure.tolerated{border-left-color:var(--warn)}summary{cursor:pointer}
ul.inconclusive{list-style:none;padding:0}ul.inconclusive>li{background:#fff;border:1px solid var(--line);border-left:4px solid var(--inc);border-radius:6px;margin:6px 0;padding:6px 12px}
blockquote{margin:6px 0;padding:2px 10px;border-left:3px solid var(--line);color:#59636e;font-style:italic}.quote{color:#59636e;font-size:12px;font-style:italic}
details.evidence>summary{font-weight:600}.req{margin:2px 0}
.sbs{display:grid;grid-template-columns:1fr 1fr;gap:12px}.sbs>div{min-width:0}.sbs h4{margin:6px 0 0}
@media (max-width:800px){.sbs{grid-template-columns:1fr}}
.legend span{margin-right:12px}footer{color:#59636e;border-top:1px solid var(--line);margin-top:24px}
.toggle{position:absolute;opacity:0;pointer-events:none}
nav.view{padding:8px 24px 0}nav.view label{cursor:pointer;border:1px solid var(--line);border-radius:6px;padding:2px 10px;background:#fff;user-select:none}
nav.view label::before{content:"☐ "}#failures-only:checked~nav.view label{background:var(--fail-bg);border-color:var(--fail)}#failures-only:checked~nav.view label::before{content:"☑ "}
#failures-only:focus-visible~nav.view label{outline:2px solid #0969da}
#failures-only:checked~main tr.ok,#failures-only:checked~main .ok-col,#failures-only:checked~main .passing{display:none}
`;

function header(r: RunReport): string {
  const s = r.summary;
  const unjudged = s.documented.inconclusive + s.assumed.inconclusive;
  const opts = [`strict ${r.options.strict ? 'on' : 'off'}`, `writes ${r.options.allowWrites ? 'allowed' : 'off'}`];
  if (r.options.seed !== undefined) opts.push(`seed ${r.options.seed}`);
  if (r.options.grep !== undefined) opts.push(`grep "${r.options.grep}"`);
  if (r.options.tags !== undefined && r.options.tags.length > 0) opts.push(`tags ${r.options.tags.join(', ')}`);
  if (r.options.shard !== undefined) opts.push(`shard ${r.options.shard}`);
  if (r.target.deviate !== undefined) opts.push(`deviating from ${r.target.deviate}`);
  return `<header class="${s.verdict}">
<h1>${s.verdict === 'pass' ? '✓ PASS' : '✗ FAIL'}: ${e(reportTitle(r))}</h1>
<p><b>${e(verdictReason(r))}</b>${unjudged > 0 ? ` · ${unjudged} rule${unjudged === 1 ? '' : 's'} inconclusive (never fails a run)` : ''}</p>
<p>target ${r.target.kind === 'sim' ? e(targetText(r)) : `<code>${e(r.target.baseUrl)}</code>`} · ${e(opts.join(' · '))} · ${e(r.tool.name)} ${e(r.tool.version)}</p>
<div class="counts">
<div>documented: ${s.documented.pass} pass · ${s.documented.fail} fail · ${s.documented.inconclusive} inconclusive · ${s.documented.notCovered} ${unjudgedLabel(r)}</div>
<div>assumed: ${s.assumed.pass} pass · ${s.assumed.fail} fail · ${s.assumed.inconclusive} inconclusive · ${s.assumed.notCovered} ${unjudgedLabel(r)}</div>
${
  r.traffic === undefined
    ? `<div>cases: ${s.cases.pass} pass · ${s.cases.fail} fail · ${s.cases.inconclusive} inconclusive · ${s.cases.skip} skip <span class="stmt">(a case is a scenario or a property, as in the terminal; junit.xml counts one test case per step and per verdict)</span></div>`
    : `<div>${e(trafficHeadline(r, r.traffic))} · ${e(findingGroups(r))}</div>`
}
</div>
</header>`;
}

type Cell = { status: CaseStatus | 'warn'; n: number; anchor?: string };

/**
 * A section that holds no failure is collapsed to its heading (a click opens it) and hidden by "failures
 * only"; one with a failure is open. `attrs`: an id, say.
 */
/** The readings the answers showed, point by point (readings.json beside the report plays them back). */
function readingsSection(r: RunReport): string {
  if (r.readings === undefined) return '';
  const rows = r.readings
    .map((p) => {
      const [cls, reading, why] =
        p.status === 'observed'
          ? ['pass', `<code>${escapeHtml(p.value ?? '')}</code>`, p.evidence ?? '']
          : p.status === 'unknown'
            ? ['warn', 'none of the known readings', p.evidence ?? '']
            : ['skip', 'not observed', p.reason ?? ''];
      return `<tr><th><code>${escapeHtml(p.name)}</code><div class="stmt">${escapeHtml(p.question)}</div></th><td><span class="badge ${cls}">${reading}</span></td><td class="stmt">${escapeHtml(why)}</td></tr>`;
    })
    .join('\n');
  const body = `<p class="stmt">Where the document is silent, what this target answers (docs/readings.md). <code>readings.json</code> beside this report plays them back: <code>commerce-sim serve --readings readings.json</code>.</p>\n<table><thead><tr><th>point</th><th>reading</th><th>evidence</th></tr></thead><tbody>\n${rows}\n</tbody></table>\n`;
  return section('Readings observed', body, false, ' id="readings"');
}

function section(title: string, body: string, failing: boolean, attrs = ''): string {
  return failing ? `<section${attrs}><h2>${title}</h2>\n${body}</section>` : `<section${attrs} class="passing"><details><summary><h2>${title}</h2></summary>\n${body}</details></section>`;
}

/** Traffic reports: what was observed, the walks (with ground truth), infrastructure notes. */
function trafficSection(r: RunReport): string {
  const t = r.traffic;
  if (t === undefined) return '';
  const walks = t.walks.filter((w) => w.findings > 0 || w.truth !== undefined).slice(0, 500);
  const rows = walks.map(
    (w) =>
      `<tr${w.findings > 0 || (w.truth?.never ?? 0) > 0 ? '' : ' class="ok"'}><th>${e(`${w.label} (${w.kind}) #${w.n}`)}</th><td>${e(w.client)}</td><td>${w.pages}</td><td>${w.records}</td><td>${w.findings}</td><td>${e(w.truth?.summary ?? '—')}</td></tr>`,
  );
  const shed =
    t.shed === undefined
      ? ''
      : `<p><strong>${t.shed.exchanges.toLocaleString('en-US')} exchanges of ${t.shed.clients.toLocaleString('en-US')} client${t.shed.clients === 1 ? '' : 's'} not judged: judge behind.</strong> They were relayed; whole clients were left unjudged rather than memory growing.</p>`;
  const deliberate = t.deliberate === undefined ? '' : `<p>${e(deliberateLine(t.deliberate))}</p>`;
  const head = `<p>${e(trafficLines(r, 0)[0] ?? '')}</p>${shed}${deliberate}`;
  const table =
    rows.length === 0
      ? ''
      : `<div class="matrix"><table><thead><tr><th>Walk</th><th>Client</th><th>Pages</th><th>Records</th><th>Findings</th><th>Ground truth</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`;
  const infra =
    t.infrastructure.length === 0
      ? ''
      : `<p>Infrastructure (never a rule failure):</p><ul>${t.infrastructure
          .slice(0, 20)
          .map((n) => `<li>${e(n.kind)}: ${e(n.message)}</li>`)
          .join('')}</ul>`;
  return section(
    `Traffic (${t.entries.toLocaleString('en-US')} exchanges, ${t.walksTotal.toLocaleString('en-US')} walks)`,
    `${head}${table}${infra}`,
    walks.some((w) => w.findings > 0),
    ' id="traffic"',
  );
}

/** The scenario authors' own checks (`user.` ids), apart from the catalogue's rules, with where each is written. */
function userCheckSection(r: RunReport): string {
  const list = userChecks(r);
  if (list.length === 0) return '';
  const rows = list.map((c) => {
    const where = placesText(c);
    const badge = c.status === 'not-covered' ? 'none' : c.status;
    return `<tr${c.status === 'fail' ? '' : ' class="ok"'}><th><code>${e(c.id)}</code></th><td><span class="badge ${badge}">${e(c.status)}</span></td><td>${c.passed} pass, ${c.failed} fail, ${c.inconclusive} inconclusive, ${c.skipped} skip</td><td>${e(where)}</td></tr>`;
  });
  return section(
    `Your own checks (${list.length})`,
    `<div class="matrix"><table><thead><tr><th>Check</th><th>Status</th><th>Verdicts</th><th>Written at</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></div>`,
    list.some((c) => c.status === 'fail'),
  );
}

/** Rules (rows) by scenario/property (columns); a failing cell links to its first failure. */
function matrix(r: RunReport, list: readonly Failure[]): string {
  if (r.rules.length === 0) return '';
  const columns = [...r.scenarios, ...r.properties].map((c) => ({
    name: c.name,
    status: c.status,
    ok: !('steps' in c ? c.steps.some((st) => st.verdicts.some((v) => v.outcome.status === 'fail')) : c.verdicts.some((v) => v.outcome.status === 'fail')),
  }));
  const anchors = new Map(list.map((f, i) => [f.verdict, `f${i + 1}`]));
  const tolerated = new Set(list.filter((f) => !f.failsRun).map((f) => f.verdict));
  const cells = new Map<string, Cell>();
  for (const { caseName, verdict } of verdictsByCase(r.scenarios, r.properties)) {
    const key = `${verdict.ruleId}\u0000${caseName}`;
    const prev = cells.get(key);
    const o = verdict.outcome.status;
    const status = o === 'fail' && tolerated.has(verdict) ? 'warn' : o;
    const anchor = prev?.anchor ?? anchors.get(verdict);
    cells.set(key, { status: worse(prev?.status, status), n: (prev?.n ?? 0) + 1, ...(anchor === undefined ? {} : { anchor }) });
  }
  // Columns are numbered: 50 scenario names written out would make a header taller than the screen. The
  // key under the matrix gives each number its whole name (and the header's tooltip does too).
  const head = columns
    .map((c, i) => `<th class="col ${c.status}${c.ok ? ' ok-col' : ''}" title="${e(`${i + 1}. ${c.name}: ${c.status}`)}"><a href="#case-${i + 1}"><span>${i + 1}</span></a></th>`)
    .join('');
  const key = columns.map((c, i) => `<li id="case-${i + 1}" class="${c.ok ? 'ok-col' : ''}" value="${i + 1}"><span class="badge ${c.status}">${c.status}</span> ${e(c.name)}</li>`).join('\n');
  const rows = r.rules.map((rule) => {
    const row = columns.map((c) => cell(cells.get(`${rule.id}\u0000${c.name}`), c.ok)).join('');
    const status = rule.status === 'fail' && !r.options.strict && rule.level === 'assumed' ? 'warn' : rule.status;
    return `<tr${rule.status === 'fail' ? '' : ' class="ok"'}><th><code>${e(rule.id)}</code><div class="stmt">${e(rule.statement)}</div>${rule.quote === undefined ? '' : `<div class="quote">“${e(rule.quote)}”</div>`}</th><td>${e(rule.level)}</td><td>${e(rule.section)}</td><td><span class="badge ${status === 'not-covered' ? 'none' : status}">${e(rule.status)}</span></td>${row}</tr>`;
  });
  return `<section id="matrix"><h2>Rules × scenarios and properties</h2>
<p class="legend"><span class="badge pass">✓ pass</span><span class="badge fail">✗ fail</span><span class="badge warn">! assumed, not strict</span><span class="badge inconclusive">? inconclusive (never fails a run)</span><span class="badge skip">– skip</span><span class="none">· not judged</span></p>
<div class="matrix"><table>
<thead><tr><th>Rule</th><th>Level</th><th>Section</th><th>Status</th>${head}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table></div>
<h3>Columns</h3>
<ol class="key">
${key}
</ol></section>`;
}

const RANK = { pass: 0, skip: 1, inconclusive: 2, warn: 3, fail: 4 } as const;
const SYMBOL = { pass: '✓', skip: '–', inconclusive: '?', warn: '!', fail: '✗' } as const;
const LABEL = { pass: 'pass', skip: 'skipped', inconclusive: 'inconclusive', warn: 'failed, assumed rule (not strict)', fail: 'fail' } as const;

function worse(a: Cell['status'] | undefined, b: Cell['status']): Cell['status'] {
  // A judged verdict beats a skip; a failure beats everything.
  return a === undefined || RANK[b] > RANK[a] ? b : a;
}

function cell(c: Cell | undefined, okColumn: boolean): string {
  const col = okColumn ? ' ok-col' : '';
  if (c === undefined) return `<td class="c none${col}">·</td>`;
  const body = c.anchor === undefined ? SYMBOL[c.status] : `<a href="#${c.anchor}">${SYMBOL[c.status]}</a>`;
  return `<td class="c ${c.status}${col}" title="${LABEL[c.status]}, ${c.n} verdict${c.n === 1 ? '' : 's'}">${body}</td>`;
}

/**
 * The failing rules first, each once: level, counts, a link to its first failure; a cause before the
 * rules that fail beside it (labelled knock-ons, naming the rule they follow).
 */
function failingRulesSection(r: RunReport, list: readonly Failure[]): string {
  const rules = failingRules(r);
  if (rules.length === 0) return '<section id="failing-rules"><h2>Failing rules</h2><p>None.</p></section>';
  const firstOf = new Map<string, number>();
  list.forEach((f, i) => {
    if (!firstOf.has(f.verdict.ruleId)) firstOf.set(f.verdict.ruleId, i + 1);
  });
  const items = rules.map((x) => {
    const badge = x.failsRun ? '<span class="badge fail">FAIL</span>' : '<span class="badge warn">WARN</span>';
    const knock = x.follows === undefined ? '' : ` <span class="badge warn">knock-on</span> follows <code>${e(x.follows)}</code>: fails beside it`;
    const anchor = firstOf.get(x.id);
    const id = anchor === undefined ? `<code>${e(x.id)}</code>` : `<a href="#f${anchor}"><code>${e(x.id)}</code></a>`;
    return `<li>${badge} ${id} (${e(ruleRef(x.rule, x.id))}): ${x.verdicts} failing verdict${x.verdicts === 1 ? '' : 's'} in ${x.places} step${x.places === 1 ? '' : 's'} or propert${x.places === 1 ? 'y' : 'ies'}${knock}</li>`;
  });
  return `<section id="failing-rules"><h2>Failing rules (${rules.length})</h2><ol>${items.join('\n')}</ol></section>`;
}

function failureSection(r: RunReport, list: readonly Failure[]): string {
  if (list.length === 0) return '<section id="failures"><h2>Failures</h2><p>None.</p></section>';
  // Open: the first failure of each rule that fails the run on its own; the rest are one line until clicked.
  const knockOns = new Set(failingRules(r).flatMap((x) => (x.follows === undefined ? [] : [x.id])));
  const seen = new Set<string>();
  const open = list.map((f) => {
    const first = !seen.has(f.verdict.ruleId);
    seen.add(f.verdict.ruleId);
    return first && f.failsRun && !knockOns.has(f.verdict.ruleId);
  });
  return `<section id="failures"><h2>Failures (${list.length})</h2>\n${list.map((f, i) => failure(f, i, open[i] === true)).join('\n')}</section>`;
}

function failure(f: Failure, i: number, open: boolean): string {
  const failingNamed = failingIndexes(f);
  const note = f.failsRun ? '' : ' <span class="badge warn">assumed: fails the run only with --strict</span>';
  const statement = f.rule === undefined ? '' : ` — ${e(f.rule.statement)}`;
  const quote = f.rule?.quote === undefined ? '' : `<blockquote>${e(f.rule.quote)}</blockquote>\n`;
  const observed =
    f.verdict.observedFor === undefined ? '' : `<br><b>Observed</b> while judging <code>${e(f.verdict.observedFor)}</code>, which is inconclusive: the request left the documented surface`;
  const replay = f.replay === undefined ? '' : `<h4>Replay</h4><pre>${e(f.replay)}</pre>`;
  // A check's description is its rule's statement: said once.
  const check = f.verdict.description === f.rule?.statement ? '' : `<b>Check</b> <code>${e(f.verdict.description)}</code><br>`;
  // Open when it fails the run; a tolerated one (assumed, not strict) stays a one-line summary until clicked.
  return `<details class="failure${f.failsRun ? '' : ' tolerated'}" id="f${i + 1}"${open ? ' open' : ''}>
<summary><span class="badge ${f.failsRun ? 'fail' : 'warn'}">${f.failsRun ? 'FAIL' : 'WARN'}</span> <code>${e(f.verdict.ruleId)}</code> (${e(ruleRef(f.rule, f.verdict.ruleId))}) — ${e(f.where)}</summary>
${quote}<p><b>Rule</b> <code>${e(f.verdict.ruleId)}</code> (${e(ruleRef(f.rule, f.verdict.ruleId))})${statement}${note}${observed}<br>
${check}<b>Message</b> ${e(f.outcome.message)}</p>
${requests(failingNamed.size > 0 ? f.exchanges : evidenceOf(f.exchanges), failingNamed)}
<div class="sbs"><div><h4>Expected</h4><pre>${e(redactedJson(f.outcome.expected, 2))}</pre></div><div><h4>Actual</h4><pre>${e(redactedJson(f.outcome.actual, 2))}</pre></div></div>
${replay}${exchangeDetails(f.exchanges, failingNamed, marksOf(f))}
</details>`;
}

/** What a failure names that a reader looks for in a body: the actual value, and the ids in its message. */
function marksOf(f: Failure): string[] {
  const out = new Set<string>();
  for (const v of [f.outcome.actual, f.outcome.expected]) if (typeof v === 'string' && v.trim().length >= 4 && v.length <= 200) out.add(v);
  for (const m of f.outcome.message.matchAll(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi)) out.add(m[0]);
  return [...out];
}

/** Longest exchange text shown on the page (report.json holds every exchange whole). */
const MAX_SHOWN = 20_000;

/** JSON bodies pretty-printed (a minified page is one unreadable line), long ones cut, what the failure names marked. */
function exchangeText(x: ExchangeExcerpt, marks: readonly string[]): string {
  const pretty = (body: string): string => {
    try {
      return JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      return body;
    }
  };
  const text = transcript({ ...x, ...(x.requestBody === undefined ? {} : { requestBody: pretty(x.requestBody) }), responseBody: pretty(x.responseBody) });
  const shown = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}\n… ${(text.length - MAX_SHOWN).toLocaleString('en-US')} more characters: report.json has the whole exchange` : text;
  let html = e(shown);
  for (const m of marks) {
    const escaped = e(m);
    html = html.split(escaped).join(`<mark>${escaped}</mark>`);
  }
  return html;
}

/**
 * The exchanges a failure names in its message (`GET /v2/... : record 1 breaks ...`): the failing one,
 * marked and shown first. Empty when the message names none (then the evidence marks stand alone).
 */
function failingIndexes(f: Failure): ReadonlySet<number> {
  const named = new Set<number>();
  f.exchanges.forEach((x, i) => {
    if (f.outcome.message.includes(`${x.method} ${x.url}`)) named.add(i);
  });
  return named;
}

/** Failing exchanges first, then the rest in order; each with its 1-based number in the step. */
function ordered(exchanges: readonly ExchangeExcerpt[], failing: ReadonlySet<number>): { x: ExchangeExcerpt; n: number; failing: boolean }[] {
  const all = exchanges.map((x, i) => ({ x, n: i + 1, failing: failing.has(i) }));
  return [...all.filter((a) => a.failing), ...all.filter((a) => !a.failing)];
}

const mark = (a: { x: ExchangeExcerpt; failing: boolean }): string =>
  a.failing ? ' <span class="badge fail">failing</span>' : a.x.evidence === true ? ' <span class="badge evidence">evidence</span>' : '';

/** The request lines a verdict rests on (the failing one first); a long walk shows its first few. */
function requests(exchanges: readonly ExchangeExcerpt[], failing: ReadonlySet<number> = new Set()): string {
  const list = ordered(exchanges, failing);
  const lines = list.slice(0, SHOWN_REQUESTS).map((a) => `<p class="req"><b>Request</b>${mark(a)} <code>${e(requestLine(a.x))}</code></p>`);
  if (list.length > SHOWN_REQUESTS) lines.push(`<p class="req">... and ${list.length - SHOWN_REQUESTS} more requests</p>`);
  return lines.join('\n');
}

/**
 * Every exchange, the failing one first and open (bodies are whole, so long); when no exchange is named
 * failing, the evidence is open; the others are collapsed.
 */
function exchangeDetails(exchanges: readonly ExchangeExcerpt[], failing: ReadonlySet<number> = new Set(), marks: readonly string[] = []): string {
  return ordered(exchanges, failing)
    .map((a) => {
      const open = a.failing || (failing.size === 0 && a.x.evidence === true);
      return `<details${a.failing || a.x.evidence === true ? ' class="evidence"' : ''}${open ? ' open' : ''}><summary>${mark(a).trim()} Exchange ${a.n}: <code>${e(requestLine(a.x))}</code></summary><pre${a.failing ? ' class="failing"' : ''}>${exchangeText(a.x, a.failing || failing.size === 0 ? marks : [])}</pre></details>`;
    })
    .join('\n');
}

function propertySection(properties: readonly PropertyResult[]): string {
  if (properties.length === 0) return '';
  const rows = properties.map(
    (p) =>
      `<tr><th>${e(p.name)}</th><td><span class="badge ${p.status}">${p.status}</span></td><td>${p.numRuns}</td><td>${p.seed}</td><td>${p.path === undefined ? '' : `<code>${e(p.path)}</code>`}</td><td>${p.counterexample === undefined ? '' : `<code>${e(p.counterexample)}</code>`}</td><td>${p.replay === undefined ? '' : `<code>${e(p.replay)}</code>`}</td></tr>`,
  );
  return section(
    'Properties',
    `<div class="matrix"><table>
<thead><tr><th>Property</th><th>Status</th><th>Runs</th><th>Seed</th><th>Path</th><th>Counterexample</th><th>Replay</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div>`,
    properties.some((p) => p.status === 'fail'),
  );
}

function inconclusiveSection(r: RunReport): string {
  const list = inconclusives(r);
  if (list.length === 0) return '';
  const items = list.map((u) => {
    const depends = u.dependsOn.length === 0 ? '' : `<br><b>Depends on</b> ${u.dependsOn.map((d) => `<code>${e(d)}</code>`).join(', ')}`;
    return `<li><span class="badge inconclusive">? inconclusive</span> <code>${e(u.verdict.ruleId)}</code> (${e(ruleRef(u.rule, u.verdict.ruleId))}) — ${e(u.where)}<br><b>Reason</b> ${e(u.reason)}${depends}
${requests(u.exchanges)}</li>`;
  });
  return section(
    `Inconclusive (${list.length})`,
    `<p class="stmt">Not judged, and never failing the run (not even with --strict): what each verdict rested on was outside the documented surface, or a setup it needed did not succeed.</p>
<ul class="inconclusive">
${items.join('\n')}
</ul>`,
    false,
    ' id="inconclusive"',
  );
}

function skipSection(r: RunReport): string {
  const items: string[] = [];
  const why = (reason: string | undefined) => e(reason ?? 'no reason given');
  for (const s of r.scenarios) {
    if (s.status === 'skip') items.push(`<li>${e(s.name)} (<code>${e(s.file)}</code>): ${why(s.skipReason)}</li>`);
    else for (const st of s.steps) if (st.status === 'skip') items.push(`<li>${e(s.name)} › step ${st.index}: ${why(st.skipReason)}</li>`);
  }
  for (const p of r.properties) if (p.status === 'skip') items.push(`<li>${e(p.name)}: ${why(p.skipReason)}</li>`);
  return items.length === 0 ? '' : section('Skipped', `<ul>${items.join('\n')}</ul>`, false);
}

function timing(r: RunReport): string {
  const t = r.timing;
  return `<footer><h2>Timing</h2><p>run <code>${e(t.runId)}</code> · started ${e(t.startedAt)} · ${t.durationMs} ms · ${t.requests} requests</p></footer>`;
}
