/**
 * `commerce-sim/traffic`: the traffic judge as a library. Judge exchanges you observed
 * (`judgeTraffic(entries)`, `createTrafficJudge()`), read HAR files and recordings (`readTraffic`),
 * put a judging proxy in front of a base URL or `startSimulator()` (`startJudgingProxy`), or wrap an
 * in-process Target (`observedTarget`); `buildTrafficReport` turns a result into the kit's report.
 */
export {
  createTrafficJudge,
  judgeTraffic,
  CHUNK_PAGES,
  CHUNK_EXCHANGES,
  type TrafficJudge,
  type TrafficJudgeOptions,
  type TrafficResult,
  type Finding,
  type FindingBase,
  type RuleTally,
  type WalkResult,
  type InfraNote,
  type Shed,
  type Deliberate,
  type DeliberateFinding,
} from './judge/judge.js';
export type { Shard } from './judge/shard.js';
export type { TrafficEntry } from './entry.js';
export { startJudgingProxy, type JudgingProxy, type JudgingProxyOptions } from './proxy/judging-proxy.js';
export { COMPLETE_MARK, type HarCreator } from './har/format.js';
export { EXPECT_HEADER } from '../rules/ids.js';
export type { ListRead, PageFacts } from './sessions/pages.js';
export type { WalkKind, Step } from './sessions/walks.js';
export { observedTarget, type ObservedTargetOptions } from './observed-target.js';
export { simulatorTruth, type GroundTruth, type WalkTruth, type WalkTracker, type WalkEnd } from './sessions/ground-truth.js';
export { buildTrafficReport, type TrafficReportInput, type JudgedParty } from './report.js';
export { readTraffic, readTrafficLog, type ReadTrafficOptions, type TrafficLog } from './har/read.js';
export { openHarWriter, type HarWriter, type HarWriterOptions } from './har/write.js';
export { TrafficInputError } from './errors.js';
export { clientRules, clientRuleMetas, CLIENT_RULE_IDS, type ClientRule, type ClientRuleMeta, type ClientRuleId } from './client-rules/catalogue.js';
export type { ClientListeners, ClientRuleContext } from './client-rules/rule.js';
export type { ClientOutcome, RequestContext, NextContext, EndContext, RunsRead } from './client-rules/rule.js';
export { RULE_SCOPES } from './judge/offered-rules.js';
export type { TrafficScope } from '../rules/rule.js';
