/** `commerce-sim/scenarios`: load YAML scenarios (validated) and run them against any Target. */
export { loadScenarios, ScenarioError, type LoadOptions, type ScenarioErrorCode, type ScenarioProblem } from './load.js';
export { runScenarios, type RunOptions, type RunProgress } from './runner.js';
export { selectScenarios } from './select.js';
export { parseShard, type Shard } from '../shard.js';
export type { Scenario } from './format.js';
