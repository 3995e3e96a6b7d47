/** Targets for the property tests: the simulator, and wrappers that break it in ways no deviation does. */
import { ruleById } from '../../src/rules/catalogue.js';
import type { RuleId } from '../../src/rules/ids.js';
import { runProperties, type PropsRunOptions } from '../../src/properties/runner.js';
import { selectProperties } from '../../src/properties/registry.js';
import type { PropertyResult } from '../../src/report/model.js';
import { createSimTarget } from '../../src/adapters/simulator.js';
import type { Target, TargetRequest, TargetResponse } from '../../src/port.js';

/** The CI seed: fixed, so a failure here replays with `--seed 20240517`. */
export const SEED = 20240517;

export const failing = (r: PropertyResult): string[] => r.verdicts.filter((v) => v.outcome.status === 'fail').map((v) => v.ruleId);

/** Runs one property by name against a fresh simulator (with deviations), strict unless told. */
export async function runOne(name: string, options: { deviate?: RuleId[]; runs?: number; seed?: number; path?: string; strict?: boolean } = {}): Promise<PropertyResult> {
  const target = await createSimTarget({ deviate: options.deviate ?? [] });
  const deviate = (options.deviate ?? []).map((d) => ` --deviate ${d}`).join('');
  const run: PropsRunOptions = {
    target,
    ruleById,
    seed: options.seed ?? SEED,
    runs: options.runs ?? 100,
    strict: options.strict ?? true,
    command: `commerce-sim props --target sim${deviate}`,
    ...(options.path === undefined ? {} : { path: options.path }),
  };
  const [result] = await runProperties(selectProperties(name), run);
  if (result === undefined) throw new Error(`no property named ${name}`);
  return result;
}

/** A target whose answers (or failures) pass through `change` first. */
export function wrap(target: Target, change: (req: TargetRequest, res: () => Promise<TargetResponse>) => Promise<TargetResponse>, extra: Partial<Pick<Target, 'kind' | 'vars'>> = {}): Target {
  return {
    kind: extra.kind ?? target.kind,
    baseUrl: target.baseUrl,
    vars: extra.vars ?? target.vars,
    send: (req) => change(req, () => target.send(req)),
    close: () => target.close(),
  };
}

/** `{"data": {"password": ...}}` strings a target was sent (generated passwords, to look for in outputs). */
export function passwordsSent(bodies: readonly string[]): string[] {
  const out = new Set<string>();
  for (const body of bodies) {
    try {
      const json: unknown = JSON.parse(body);
      const pw = typeof json === 'object' && json !== null && 'data' in json && typeof json.data === 'object' && json.data !== null && 'password' in json.data ? json.data.password : undefined;
      if (typeof pw === 'string' && [...pw].length >= 8 && pw.trim() !== '') out.add(pw);
    } catch {
      // not JSON: no password
    }
  }
  return [...out];
}
