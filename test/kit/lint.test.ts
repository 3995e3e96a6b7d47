/** The lint rule that guards determinism (issue 11): simulator logic cannot read the real clock or an unseeded random source. */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });
const lint = async (code: string, filePath: string) => (await eslint.lintText(code, { filePath }))[0]?.messages.map((m) => m.ruleId) ?? [];

describe('the determinism lint rule', () => {
  it.each(['src/sim/x.ts', 'src/store/x.ts', 'src/engine/x.ts', 'src/rules/x.ts'])('bans Date.now, Math.random and new Date() in %s', async (file) => {
    expect(await lint('export const a = Date.now();\n', file)).toContain('no-restricted-properties');
    expect(await lint('export const b = Math.random();\n', file)).toContain('no-restricted-properties');
    expect(await lint('export const c = new Date();\n', file)).toContain('no-restricted-syntax');
    expect(await lint('export const d = (ms: number) => new Date(ms).toISOString();\n', file)).toEqual([]);
  });

  it('leaves the adapters alone (the CLI hands the real clock in)', async () => {
    expect(await lint('export const a = Date.now();\n', 'src/cli/x.ts')).toEqual([]);
  });
});
