/**
 * GitHub Actions workflow commands (`--reporter github`, or on its own under GITHUB_ACTIONS): one
 * `::error` per failure that fails the run, a `::warning` per tolerated one (an assumed rule without
 * --strict) and per inconclusive documented rule, each at the scenario file and line, so they show on
 * the pull request's diff. Pure: report in, text out.
 */
import type { RunReport } from './model.js';
import { failures, inconclusives } from './summarise.js';

/** Workflow-command escaping: data escapes %, CR and LF; properties also `:` and `,`. */
const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const property = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

function command(kind: 'error' | 'warning', title: string, message: string, file: string | undefined, line: number | undefined): string {
  const props = [...(file === undefined ? [] : [`file=${property(file)}`]), ...(line === undefined ? [] : [`line=${line}`]), `title=${property(title)}`];
  return `::${kind} ${props.join(',')}::${data(message)}`;
}

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

/** `fallbackFile`: where failures without a scenario file are annotated (see workflowFile). */
export function renderGithub(report: RunReport, fallbackFile?: string): string {
  const lines: string[] = [];
  for (const f of failures(report)) {
    const rule = f.rule;
    const title = `${f.verdict.ruleId}${rule === undefined ? '' : ` (${rule.level}, ${rule.section})`}`;
    const message = `${f.where}: ${f.outcome.message}\nexpected: ${shown(f.outcome.expected)}\nactual: ${shown(f.outcome.actual)}${f.failsRun ? '' : '\n(assumed rule: fails the run only with --strict)'}${f.replay === undefined ? '' : `\nreplay: ${f.replay}`}`;
    lines.push(command(f.failsRun ? 'error' : 'warning', title, message, f.file ?? fallbackFile, f.file === undefined ? undefined : f.line));
  }
  for (const u of inconclusives(report)) {
    if (u.rule?.level !== 'documented' || u.rule.status !== 'inconclusive') continue;
    const scenario = report.scenarios.find((s) => u.where.startsWith(`${s.name} › `));
    lines.push(command('warning', `${u.verdict.ruleId} inconclusive`, `${u.where}: ${u.reason}`, scenario?.file ?? fallbackFile, scenario?.line));
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
