import { describe, expect, it } from 'vitest';
import { escapeHtml, renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { makeReport } from './fixture.js';

describe('renderMarkdown', () => {
  const md = renderMarkdown(makeReport());

  it('has the summary, the rule table and the failure with expected/actual and section', () => {
    expect(md).toContain('**Verdict: ❌ FAIL**');
    expect(md).toContain('| `create.type.underscore-echo` | documented | §2.3 | ❌ fail | 0 pass, 1 fail, 0 skip — password profile type echo |');
    expect(md).toContain('"user_authentication_password_profile_info"');
    expect(md).toContain('"user-authentication-password-profile-info"');
    expect(md).toContain('(documented, §2.3)');
    expect(md).toContain('commerce-sim props --target sim --seed 42 --path 3:1');
    expect(md).toContain('POST /v2/authentication-realms/r1/user-authentication-info/u1/user-authentication-password-profile-info');
    expect(md).toContain('fails the run only with `--strict`');
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
    expect(html).toContain('<th class="col fail" title="password profile type echo: fail"><span>password profile type echo</span>');
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
});
