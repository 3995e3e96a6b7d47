/**
 * commerce-sim as a library: the simulator (in-process or over HTTP), the targets, the rule catalogue,
 * the scenario and property runners, and the reporters. The reference client is `commerce-sim/client`.
 */
export { Simulator, DEFAULT_SEED, DEFAULT_CLIENT_ID, type SimulatorOptions, type SeededIds } from './sim/simulator.js';
export { listen, createSimServer, type RunningServer } from './sim/server.js';
export type { SimRequest, SimResponse } from './sim/types.js';
export { createSimTarget, simTargetOf, type SimTargetOptions } from './target/sim.js';
export { createHttpTarget, type HttpTargetOptions } from './target/http.js';
export { TargetError, toExchange, type Target, type TargetRequest, type TargetResponse, type Exchange, type TargetErrorCode } from './target/types.js';
export { catalogue, ruleById, documentedRuleIds } from './rules/catalogue.js';
export type { Rule, Level, Outcome, CheckContext, Family, RuleId } from './rules/types.js';
export { RULE_IDS, isRuleId } from './rules/ids.js';
export { judgeRule, reviewFailure, type RuleJudgement } from './rules/judge.js';
export { classifyRequest, describeGaps, type Classification, type SurfaceGap } from './rules/surface.js';
export type { Surface } from './sim/surface.js';
export { loadScenarios, ScenarioError } from './scenarios/load.js';
export { runScenarios, type RunOptions } from './scenarios/run.js';
export { runProperties } from './properties/runner.js';
export { properties } from './properties/registry.js';
export { renderJson } from './report/json.js';
export { renderJunit } from './report/junit.js';
export { renderMarkdown } from './report/markdown.js';
export { renderHtml } from './report/html.js';
export { writeReports } from './report/write.js';
export { buildRunReport, type RunReportInput } from './report/build.js';
export type { RunReport, ScenarioResult, PropertyResult, RuleSummary } from './report/model.js';
export { DEVIATION_IDS } from './engine/deviations.js';
