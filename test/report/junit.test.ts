import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/report/junit.js';
import { makeReport } from './fixture.js';

const count = (xml: string, re: RegExp) => (xml.match(re) ?? []).length;
const attr = (xml: string, element: string, name: string) => new RegExp(`<${element}[^>]*\\s${name}="(\\d+)"`).exec(xml)?.[1];

describe('renderJunit', () => {
  // 2 scenario files + properties; cases: 2 (create account) + 6 (2 steps, 4 verdicts) + 1 (skipped scenario) + 2 (property, verdict).
  it('has a suite per file plus properties, and a case per step, property and verdict', () => {
    const xml = renderJunit(makeReport());
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(count(xml, /<testsuite\s/g)).toBe(3);
    expect(xml).toContain('<testsuite name="scenarios/create.yaml" tests="8"');
    expect(xml).toContain('<testsuite name="properties" tests="2"');
    expect(count(xml, /<testcase\s/g)).toBe(11);
    expect(attr(xml, 'testsuites', 'tests')).toBe('11');
    // Failing without strict: step 1, the documented type verdict, the property and its verdict; the assumed rule is a note.
    expect(count(xml, /<failure[\s>/]/g)).toBe(4);
    expect(attr(xml, 'testsuites', 'failures')).toBe('4');
    expect(count(xml, /<skipped[\s/]/g)).toBe(2);
    expect(xml).toContain('<skipped message="skipped: token endpoint not judged here"/>');
    expect(xml).toContain('<skipped message="skipped: needs --allow-writes"/>');
    expect(attr(xml, 'testsuites', 'skipped')).toBe('2');
    expect(xml).toContain('name="create.type.underscore-echo: $.data.type equals &quot;user_authentication_password_profile_info&quot;"');
    expect(xml).toContain('skipped: needs --allow-writes');
    expect(xml).toContain('assumed rule not observed (fails the run only with --strict)');
    // Its totals are not the terminal's: each suite says what it counts.
    expect(
      count(
        xml,
        /<property name="counts" value="one test case per step, per property and per rule verdict; the terminal, report.md and report.html count cases \(a scenario or a property\) and rules instead"\/>/g,
      ),
    ).toBe(3);
  });

  it('under strict the assumed rule is a failure too', () => {
    const xml = renderJunit(makeReport({ strict: true }));
    expect(count(xml, /<failure[\s>/]/g)).toBe(5);
  });

  it('failures carry expected/actual, the section and the replay', () => {
    const xml = renderJunit(makeReport());
    expect(xml).toContain('expected: "user_authentication_password_profile_info"');
    expect(xml).toContain('actual:   "user-authentication-password-profile-info"');
    expect(xml).toContain('(documented, §2.3)');
    expect(xml).toContain('document: "The type is user_authentication_password_profile_info."');
    expect(xml).toContain('replay: commerce-sim props --target sim --seed 42 --path 3:1');
  });

  it('escapes a skip message for its attribute', () => {
    const base = makeReport();
    const [, , skippedScenario] = base.scenarios;
    if (skippedScenario === undefined) throw new Error('fixture has a skipped scenario');
    const report = { ...base, scenarios: [{ ...skippedScenario, skipReason: 'needs "x" & <y>\nnext\u0001' }] };
    expect(renderJunit(report)).toContain('<skipped message="skipped: needs &quot;x&quot; &amp; &lt;y&gt;&#10;next"/>');
  });

  it('is well-formed enough: every opened element closes, CDATA included', () => {
    const xml = renderJunit(makeReport());
    const body = xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
    expect(body).not.toContain('<script>');
    for (const el of ['testsuites', 'testsuite', 'testcase', 'failure', 'system-out']) {
      const opened = count(body, new RegExp(`<${el}[\\s>]`, 'g'));
      const selfClosed = count(body, new RegExp(`<${el}(\\s[^>]*)?/>`, 'g'));
      expect(count(body, new RegExp(`</${el}>`, 'g')), el).toBe(opened - selfClosed);
    }
  });

  it('stays well-formed when report text contains CDATA terminators', () => {
    const base = makeReport();
    const [prop] = base.properties;
    if (prop === undefined) throw new Error('fixture has a property');
    const report = { ...base, properties: [{ ...prop, counterexample: 'a]]>b]]>c' }] };
    const body = renderJunit(report).replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
    expect(body).not.toContain(']]>');
    expect(body).not.toContain('b]]');
  });

  it('has no clock in it and is byte-identical across renders and timings', () => {
    const a = renderJunit(makeReport({ runId: 'a', durationMs: 5 }));
    expect(renderJunit(makeReport({ runId: 'b', durationMs: 9 }))).toBe(a);
    expect(a).not.toMatch(/timestamp=|time=/);
  });
});
