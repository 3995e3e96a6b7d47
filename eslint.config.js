// Lint rules of the project. The one rule that guards a design promise: simulator logic (sim, store,
// engine, rules) never reads the real clock or an unseeded random source: a seed and a virtual clock
// decide everything, so the same seed gives byte-identical responses, fixtures and reports.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const determinism = {
  'no-restricted-properties': [
    'error',
    { object: 'Date', property: 'now', message: 'Simulator logic reads the virtual clock (store/clock.ts), never Date.now: the same seed must give the same bytes.' },
    { object: 'Math', property: 'random', message: 'Simulator logic draws from the seeded PRNG (store/random.ts), never Math.random.' },
  ],
  'no-restricted-syntax': ['error', { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'new Date() reads the real clock: use the virtual clock.' }],
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'reports/', 'coverage/', 'fixtures/', '.stryker-tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  { files: ['src/sim/**/*.ts', 'src/store/**/*.ts', 'src/engine/**/*.ts', 'src/rules/**/*.ts'], rules: determinism },
);
