/**
 * GitHub Actions workflow commands (`--reporter github`, or on its own under GITHUB_ACTIONS): one
 * `::error` per failure that fails the run, a `::warning` per tolerated one (an assumed rule without
 * --strict) and per inconclusive documented rule, each at the scenario file and line when the repository
 * has that file, so they show on the pull request's diff; a file elsewhere (an installed package's, the
 * Action's) is named in the message instead. Pure: report in, text out.
 */
import { isAbsolute, relative, sep } from 'node:path';
import type { RunReport } from './model.js';
import { failures, inconclusives } from './summarise.js';
import { workflowCommand } from './workflow-command.js';

const shown = (v: unknown) => {
  const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
};

/**
 * The workflow file a job runs, from `GITHUB_WORKFLOW_REF` (`owner/repo/.github/workflows/ci.yml@refs/...`):
 * where a failure with no file of its own (a property's) is annotated, so it shows on the file that ran it.
 */
export function workflowFile(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const ref = env['GITHUB_WORKFLOW_REF'];
  const match = ref === undefined ? null : /^[^/]+\/[^/]+\/(.+?)@/.exec(ref);
  return match?.[1];
}

/**
 * `path` named relative to `workspace` (`/`-separated) when it is a file of the repository checked out
 * there, else undefined: GitHub shows an annotation only at a file of the repository, and a path outside
 * (the Action's own scenarios) could name a user's file of the same name. Under `node_modules/` lie
 * installed packages (commerce-sim's own scenarios), never the repository's files.
 */
export function inWorkspace(path: string, workspace: string): string | undefined {
  const rel = relative(workspace, path);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  const parts = rel.split(sep);
  return parts.includes('node_modules') ? undefined : parts.join('/');
}

/**
 * Where a report's file is for GitHub: a file of the repository (named as the repository names it), a file
 * elsewhere (its annotations carry no file and say the path in their message), or no file at all (the
 * fallback file, as for a failure without one).
 */
export type FilePlace = { readonly kind: 'repository'; readonly file: string } | { readonly kind: 'outside' } | { readonly kind: 'none' };

/** Where annotations go. */
export interface GithubPlaces {
  /** Where failures with no file of their own (a property's) are annotated (see workflowFile). */
  readonly fallbackFile?: string;
  /** Where a report's file (ScenarioResult.file) is; without it, every file is taken as the repository names it. */
  readonly locate?: (file: string) => FilePlace;
}

/** `places`: a string is the fallback file alone (see GithubPlaces). */
export function renderGithub(report: RunReport, places: string | GithubPlaces = {}): string {
  const { fallbackFile, locate = (file: string): FilePlace => ({ kind: 'repository', file }) } = typeof places === 'string' ? { fallbackFile: places } : places;
  // At the file when the repository has it; a file elsewhere is named in the message, where a reader finds it.
  const placed = (file: string | undefined, line: number | undefined, message: string): { message: string; at?: { file: string; line?: number | undefined } } => {
    const place: FilePlace = file === undefined ? { kind: 'none' } : locate(file);
    switch (place.kind) {
      case 'repository':
        return { message, at: { file: place.file, line } };
      case 'outside':
        return { message: `${file ?? ''}${line === undefined ? '' : `:${line}`}: ${message}` };
      case 'none':
        return fallbackFile === undefined ? { message } : { message, at: { file: fallbackFile } };
    }
  };
  const lines: string[] = [];
  for (const f of failures(report)) {
    const rule = f.rule;
    const title = `${f.verdict.ruleId}${rule === undefined ? '' : ` (${rule.level}, ${rule.section})`}`;
    const message = `${f.where}: ${f.outcome.message}\nexpected: ${shown(f.outcome.expected)}\nactual: ${shown(f.outcome.actual)}${f.failsRun ? '' : '\n(assumed rule: fails the run only with --strict)'}${f.replay === undefined ? '' : `\nreplay: ${f.replay}`}`;
    const p = placed(f.file, f.file === undefined ? undefined : f.line, message);
    lines.push(workflowCommand(f.failsRun ? 'error' : 'warning', title, p.message, p.at));
  }
  for (const u of inconclusives(report)) {
    if (u.rule?.level !== 'documented' || u.rule.status !== 'inconclusive') continue;
    const scenario = report.scenarios.find((s) => u.where.startsWith(`${s.name} › `));
    const p = placed(scenario?.file, scenario?.line, `${u.where}: ${u.reason}`);
    lines.push(workflowCommand('warning', `${u.verdict.ruleId} inconclusive`, p.message, p.at));
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
