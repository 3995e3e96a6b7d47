/**
 * Where GitHub annotations point (issue 27): at a file of the repository, relative to the workspace;
 * a file elsewhere (outside the workspace, or an installed package under node_modules/) is named in the
 * message with its line, and carries no file= or line=; a case with no file goes on the fallback file.
 */
import { describe, expect, it } from 'vitest';
import { inWorkspace, renderGithub } from '../../src/report/github.js';
import { failing, makeReport } from './fixture.js';

describe('inWorkspace', () => {
  it.each([
    ['/ws/scenarios/a.yaml', 'scenarios/a.yaml'],
    ['/ws/app/conformance/b.yml', 'app/conformance/b.yml'],
    ['/ws/..hidden/c.yaml', '..hidden/c.yaml'],
    ['/ws', undefined],
    ['/elsewhere/scenarios/a.yaml', undefined],
    ['/ws-other/a.yaml', undefined],
    ['/ws/node_modules/commerce-sim/scenarios/a.yaml', undefined],
    ['/ws/app/node_modules/x/a.yaml', undefined],
  ])('%s in /ws: %s', (path, want) => {
    expect(inWorkspace(path, '/ws')).toBe(want);
  });
});

describe('renderGithub places', () => {
  // Scenarios read from a file: the scenario at line 7, its steps at line 12.
  const base = makeReport();
  const report = { ...base, scenarios: base.scenarios.map((s) => ({ ...s, line: 7, steps: s.steps.map((step) => ({ ...step, line: 12 })) })) };
  const errorLines = (text: string) => text.split('\n').filter((l) => l.startsWith('::error '));

  it('at the file the repository names, with its line', () => {
    const lines = errorLines(renderGithub(report, { locate: () => ({ kind: 'repository', file: 'ci/suite.yaml' }) })).filter((l) => l.includes(`${failing.name} › `));
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^::error file=ci\/suite\.yaml,line=12,title=/);
  });

  it('a file elsewhere: no file= nor line=, its path and line lead the message', () => {
    const lines = errorLines(renderGithub(report, { fallbackFile: '.github/workflows/ci.yml', locate: () => ({ kind: 'outside' }) }));
    const scenarioLines = lines.filter((l) => l.includes(`${failing.name} › `));
    expect(scenarioLines.length).toBeGreaterThan(0);
    for (const l of scenarioLines) expect(l).toMatch(new RegExp(`^::error title=[^:]+::${failing.file.replace(/\./g, '\\.')}:12: ${failing.name}`));
  });

  it('no file at all: the fallback file, as a property has; the old string form still names it', () => {
    const none = errorLines(renderGithub(report, { fallbackFile: '.github/workflows/ci.yml', locate: () => ({ kind: 'none' }) }));
    for (const l of none) expect(l).toMatch(/^::error file=\.github\/workflows\/ci\.yml,title=/);
    expect(renderGithub(report, '.github/workflows/ci.yml')).toContain('::error file=.github/workflows/ci.yml,title=');
  });
});
