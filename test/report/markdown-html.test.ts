import { describe, expect, it } from 'vitest';
import { escapeHtml, renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { makeReport } from './fixture.js';

describe('renderMarkdown', () => {
  const md = renderMarkdown(makeReport());

  it('has the summary, the rule table and the failure with expected/actual and section', () => {
    expect(md).toContain('**Verdict: ❌ FAIL**');
    expect(md).toContain(
      '| `create.type.underscore-echo` | documented | §2.3 | ❌ fail | 0 pass, 1 fail, 0 inconclusive, 0 skip — password profile type echo | The response echoes the type with underscores. — “The type is user\\_authentication\\_password\\_profile\\_info.” |',
    );
    expect(md).toContain('"user_authentication_password_profile_info"');
    expect(md).toContain('"user-authentication-password-profile-info"');
    expect(md).toContain('(documented, §2.3)');
    expect(md).toContain('commerce-sim props --target sim --seed 42 --path 3:1');
    expect(md).toContain('POST /v2/authentication-realms/r1/user-authentication-info/u1/user-authentication-password-profile-info');
    expect(md).toContain('fails the run only with `--strict`');
  });

  it('puts the verdict line first, then the failures (failing the run first), then the rest', () => {
    const lines = md.split('\n');
    expect(lines[2]).toBe('**Verdict: ❌ FAIL** — 2 documented rules failed — target the embedded simulator (in process), commerce-sim 0.1.0');
    expect(md.indexOf('## Failures (3)')).toBeLessThan(md.indexOf('## Summary'));
    expect(md.indexOf('## Summary')).toBeLessThan(md.indexOf('## Rules'));
    const first = md.indexOf('### 1. ❌ `create.type.underscore-echo` (documented, §2.3) — password profile type echo › step 1: create password profile info');
    const second = md.indexOf('### 2. ❌ `pagination.limit.clamp` (documented, §3.2) — limit is clamped');
    const tolerated = md.indexOf('### 3. ⚠️ `errors.format.json-api` (assumed, docs/api-notes.md: Errors)');
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(first);
    expect(tolerated).toBeGreaterThan(second);
  });

  it("gives each failure the document's words, the request it rests on, and marks the evidence exchange", () => {
    const entry = md.slice(md.indexOf('### 1. '), md.indexOf('### 2. '));
    expect(entry).toContain('> The type is user\\_authentication\\_password\\_profile\\_info.');
    expect(entry).toContain('- Request (evidence): `POST /v2/authentication-realms/r1/user-authentication-info/u1/user-authentication-password-profile-info → 201`');
    expect(entry).toContain('- Expected `"user_authentication_password_profile_info"`, actual `"user-authentication-password-profile-info"`');
    expect(entry).not.toContain('<details>');
    // The whole exchanges come after the rule table, the evidence marked, response headers redacted.
    const details = md.slice(md.indexOf('## Failure details'));
    expect(md.indexOf('## Failure details')).toBeGreaterThan(md.indexOf('## Rules'));
    expect(details).toContain('<details><summary><b>Evidence</b> — exchange 1: POST');
    expect(details).toContain('set-cookie: [REDACTED]');
    expect(details).toContain('x-auth-token: [REDACTED]');
  });

  it('ends with the timing section, the only part that changes between identical runs', () => {
    const other = renderMarkdown(makeReport({ runId: 'other', durationMs: 99 }));
    const cutAt = (text: string) => text.slice(0, text.indexOf('## Timing'));
    expect(md.lastIndexOf('## ')).toBe(md.indexOf('## Timing'));
    expect(cutAt(other)).toBe(cutAt(md));
    expect(renderMarkdown(makeReport())).toBe(md);
  });
});

describe('renderHtml', () => {
  const html = renderHtml(makeReport());

  it('is one self-contained page: no scripts, no external assets', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\/(?!127\.0\.0\.1)/);
    expect(html).toContain('<style>');
  });

  it('escapes report text: a <script> in a response body shows as text', () => {
    expect(html).toContain('&lt;script&gt;alert(\\&quot;x\\&quot;)&lt;/script&gt;');
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('shows the matrix, the failure side by side with section and exchange, and timing last', () => {
    expect(html).toMatch(/<th class="col fail" title="(\d+)\. password profile type echo: fail"><a href="#case-\1"><span>\1<\/span><\/a><\/th>/);
    expect(html).toMatch(/<li id="case-\d+" class="" value="\d+"><span class="badge fail">fail<\/span> password profile type echo<\/li>/);
    expect(html).toMatch(/<td class="c fail"[^>]*><a href="#f1">✗<\/a><\/td>/);
    expect(html).toContain('<td class="c warn"');
    expect(html).toContain('<td class="c skip"');
    expect(html).toContain('<h4>Expected</h4><pre>&quot;user_authentication_password_profile_info&quot;</pre>');
    expect(html).toContain('<h4>Actual</h4><pre>&quot;user-authentication-password-profile-info&quot;</pre>');
    expect(html).toContain('(documented, §2.3)');
    expect(html).toContain('id="f1"');
    expect(html.indexOf('<h2>Timing</h2>')).toBeGreaterThan(html.indexOf('Failures'));
    expect(renderHtml(makeReport())).toBe(html);
  });

  it('leads with the verdict and the failures, before the matrix; quotes the document; marks the evidence', () => {
    expect(html).toContain('<p><b>2 documented rules failed</b></p>');
    expect(html.indexOf('<h2>Failures (3)</h2>')).toBeLessThan(html.indexOf('class="matrix"'));
    expect(html).toContain('<blockquote>The type is user_authentication_password_profile_info.</blockquote>');
    expect(html).toContain('<div class="quote">“The type is user_authentication_password_profile_info.”</div>');
    expect(html).toContain(
      '<p class="req"><b>Request</b> <span class="badge evidence">evidence</span> <code>POST /v2/authentication-realms/r1/user-authentication-info/u1/user-authentication-password-profile-info → 201</code></p>',
    );
    expect(html).toMatch(/<details class="evidence" open><summary><span class="badge evidence">evidence<\/span> Exchange 1: /);
    expect(html).toContain('id="f1" open>');
    expect(html.indexOf('id="f1"')).toBeLessThan(html.indexOf('id="f3"'));
    expect(html.slice(html.indexOf('id="f3"'))).toMatch(/^id="f3">\n<summary><span class="badge warn">WARN<\/span> <code>errors.format.json-api<\/code>/);
  });
});
