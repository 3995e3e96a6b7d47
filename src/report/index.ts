/** `commerce-sim/report`: a run's report built once, and every format written from it. */
export { renderJson } from './json.js';
export { renderJunit } from './junit.js';
export { renderMarkdown } from './markdown.js';
export { renderHtml } from './html.js';
export { renderGithub } from './github.js';
export { writeReports } from './write.js';
export { buildRunReport, type RunReportInput } from './build.js';
export type { RunReport, ScenarioResult, PropertyResult, RuleSummary, CaseStatus, LevelCounts, RuleStatus, RunSummary } from './model.js';
export type { ReadingPointReport } from './model.js';
export { renderReadingsFile, READINGS_FILE } from './readings-file.js';
