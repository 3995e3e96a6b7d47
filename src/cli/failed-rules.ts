/** The failing rules as `run` lists them under its summary (causes first, knock-ons named after theirs), shared by every command that prints a verdict. */
import type { RuleSummary, RunReport } from '../report/model.js';
import { failingRules, placesText, userChecks } from '../report/summarise.js';
import type { Style } from './style.js';

const SHOWN = 15;

export function failedRuleLines(report: RunReport, style: Pick<Style, 'fail' | 'warn'>): string[] {
  const lines: string[] = [];
  const catalogued = failingRules(report).filter((x) => x.rule !== undefined);
  for (const x of catalogued.slice(0, SHOWN)) {
    const r = x.rule as RuleSummary;
    lines.push(`  ${(r.level === 'documented' ? style.fail : style.warn)('failed')}: ${r.id} (${r.level}, ${r.section})${x.follows === undefined ? '' : `, a knock-on: follows ${x.follows}`}`);
  }
  for (const c of userChecks(report).filter((x) => x.status === 'fail')) lines.push(`  ${style.fail('failed')}: ${c.id} (your own check, ${placesText(c)})`);
  if (catalogued.length > SHOWN) lines.push(`  ... and ${catalogued.length - SHOWN} more failing rules`);
  return lines;
}
