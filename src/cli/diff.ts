/**
 * `commerce-sim diff --a sim|URL|DIR --b sim|URL|DIR [PATHS...]`: runs the same read-only scenarios
 * against both sides (a recording directory replays what it saved) and reports behavioural differences
 * rule by rule. Exit 0: none; 1: some; 2: usage or target error.
 */
import { checkDeviations } from './target-options.js';
import type { RuleId } from '../rules/ids.js';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { behaviouralCount, compareSides, type Side } from '../recordings/diff.js';
import { renderDiffJson, renderDiffMarkdown } from '../recordings/diff-report.js';
import { loadRecording, type Recording } from '../recordings/record-live.js';
import type { Scenario } from '../scenarios/format.js';
import { defineCommand, type DefinedCommand, type Values } from './command.js';
import { EXIT_OK, EXIT_RULE_FAILED, UsageError, type CliIo } from './io.js';
import { LIVE_OPTIONS, liveSettings, recordableScenarios, recordLive, type LiveSettings } from './record.js';

const USAGE = `usage: commerce-sim diff --a sim|URL|DIR --b sim|URL|DIR [PATHS...] [options]

Runs the same read-only scenarios against both sides (a DIR made by \`commerce-sim record\` replays
its exchanges) and reports, rule by rule, where they behave differently: statuses, error bodies,
page sizes, totals, links, ordering, field sets. Ids and timestamps are compared by shape. Each
difference is listed under the rule that explains it; the other rules it touches are knock-ons.
  --a, --b SIDE               sim, a base URL, or a recording directory (both required)
  --json                      print the JSON report instead of Markdown
  --out FILE                  also write the report to FILE
  --deviate-a RULE            (sim side) break RULE on purpose, repeatable; --deviate-b likewise
  target options as \`commerce-sim record\` (--token-env, --client-id, --client-secret-env, --var,
  --config, --allow-writes, --budget, --rps, --sim-seed, --grep, --tag; --seed is refused); credentials apply to URL sides.
  -h, --help                  this help
Exit 0 when no behavioural difference, 1 when there are, 2 on usage or target errors.`;

type SideSpec = { readonly kind: 'sim' } | { readonly kind: 'url'; readonly url: string } | { readonly kind: 'dir'; readonly dir: string };

const OPTIONS = {
  ...LIVE_OPTIONS,
  a: { type: 'string' },
  b: { type: 'string' },
  json: { type: 'boolean' },
  out: { type: 'string' },
  'deviate-a': { type: 'string', multiple: true },
  'deviate-b': { type: 'string', multiple: true },
} as const;

export const diff: DefinedCommand = defineCommand({
  name: 'diff',
  usage: USAGE,
  options: OPTIONS,
  allowPositionals: true,
  main: diffCommand,
});

async function diffCommand(values: Values<typeof OPTIONS>, io: CliIo, positionals: readonly string[]): Promise<number> {
  if (values.a === undefined || values.b === undefined) throw new UsageError('CLI_USAGE', '--a and --b are both required');
  const specA = await sideSpec(values.a, io);
  const specB = await sideSpec(values.b, io);
  const deviations = {
    a: checkDeviations('--deviate-a', values['deviate-a'] ?? []),
    b: checkDeviations('--deviate-b', values['deviate-b'] ?? []),
  };
  for (const [side, ids] of Object.entries(deviations)) {
    const spec = side === 'a' ? specA : specB;
    if (ids.length > 0 && spec.kind !== 'sim') throw new UsageError('CLI_USAGE', `--deviate-${side} applies to a sim side only`);
  }
  const settings = await liveSettings(values, io);

  // Recordings first: a live side then runs only the scenarios a recording holds.
  const recA = specA.kind === 'dir' ? await loadRecording(specA.dir) : undefined;
  const recB = specB.kind === 'dir' ? await loadRecording(specB.dir) : undefined;
  let scenarios: Scenario[] | undefined;
  if (recA === undefined || recB === undefined) {
    const all = await recordableScenarios(positionals, settings, io);
    const held = recA ?? recB;
    scenarios = held === undefined ? all : all.filter((s) => held.scenarios.some((h) => h.name === s.name));
  }
  const a: Side = { label: values.a, recording: recA ?? (await live(specA, scenarios ?? [], settings, deviations.a)) };
  const b: Side = { label: values.b, recording: recB ?? (await live(specB, scenarios ?? [], settings, deviations.b)) };

  const result = compareSides(a, b);
  const text = values.json === true ? renderDiffJson(result) : renderDiffMarkdown(result);
  if (values.out !== undefined) {
    const path = resolve(io.cwd, values.out);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
  io.stdout.write(text);
  return behaviouralCount(result) === 0 ? EXIT_OK : EXIT_RULE_FAILED;
}

async function sideSpec(text: string, io: CliIo): Promise<SideSpec> {
  if (text === 'sim') return { kind: 'sim' };
  if (/^https?:\/\//i.test(text)) return { kind: 'url', url: text };
  const dir = resolve(io.cwd, text);
  const info = await stat(dir).catch(() => undefined);
  if (info?.isDirectory() !== true) throw new UsageError('CLI_USAGE', `'${text}' is not sim, an http(s) URL, or a recording directory`);
  return { kind: 'dir', dir };
}

async function live(spec: SideSpec, scenarios: readonly Scenario[], settings: LiveSettings, deviate: readonly RuleId[]): Promise<Recording> {
  if (spec.kind === 'dir') throw new Error('a recording side is loaded, not run');
  const run = await recordLive(spec.kind === 'sim' ? 'sim' : spec.url, scenarios, settings, deviate.length > 0 ? { deviate } : {});
  return run.recording;
}
