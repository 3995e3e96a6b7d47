/**
 * Every sub-command of `commerce-sim`, in the order the help lists them, each loaded lazily so start-up
 * stays fast. Tests walk this table, so a new command is held to the same usage and help checks.
 */
import type { DefinedCommand } from './command.js';

export const commands: Readonly<Record<string, { readonly summary: string; readonly load: () => Promise<DefinedCommand> }>> = {
  serve: { summary: 'run the simulator over HTTP', load: async () => (await import('./serve.js')).serve },
  run: { summary: 'run YAML scenarios against sim or a base URL', load: async () => (await import('./run.js')).run },
  props: { summary: 'run the property suites against sim or a base URL', load: async () => (await import('./props.js')).props },
  fixtures: { summary: 'write byte-stable fixtures', load: async () => (await import('./fixtures.js')).fixtures },
  record: { summary: 'record read-only exchanges from a live deployment', load: async () => (await import('./record.js')).record },
  proxy: { summary: 'relay traffic to a server (or sim) and judge it: server and client rules', load: async () => (await import('./proxy.js')).proxy },
  check: { summary: 'judge recorded traffic (HAR files, recordings): server and client rules', load: async () => (await import('./check.js')).check },
  diff: { summary: 'compare two targets or recordings rule by rule', load: async () => (await import('./diff.js')).diff },
  export: { summary: 'export accounts to CSV with the keyset pattern', load: async () => (await import('./export.js')).exportCommand },
  mutation: { summary: 'prove the suite catches every deviation of the simulator', load: async () => (await import('./mutation.js')).mutation },
  rules: { summary: 'print the rule catalogue', load: async () => (await import('./rules.js')).rules },
  readings: { summary: 'print the points the document leaves open and their conforming answers', load: async () => (await import('./readings.js')).readings },
  openapi: { summary: 'print an OpenAPI 3.1 document of the simulated surface', load: async () => (await import('./openapi.js')).openapi },
  report: { summary: 'merge the reports of sharded runs into one (report merge DIR...)', load: async () => (await import('./report.js')).report },
};
