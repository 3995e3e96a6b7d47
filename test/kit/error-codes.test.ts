/** One base class for the tool's errors, one table of their codes (issue 11): docs/errors.md lists exactly the codes. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/io.js';
import { ClientError } from '../../src/client/retry.js';
import { ERROR_CODES, KitError } from '../../src/kit-errors.js';
import { FixtureError } from '../../src/recordings/generate.js';
import { RecordingError } from '../../src/recordings/record-live.js';
import { AdminError } from '../../src/properties/admin-requests.js';
import { PropertySetupError } from '../../src/properties/define.js';
import { ReportError } from '../../src/report/write.js';
import { ScenarioError } from '../../src/scenarios/load.js';
import { DatasetError } from '../../src/store/dataset-error.js';
import { TargetError } from '../../src/port.js';
import { SimulatorOptionError } from '../../src/kit/start-simulator.js';
import { SimulatorPortInUseError } from '../../src/sim/listen-error.js';
import { TrafficInputError } from '../../src/traffic/errors.js';

describe('error codes', () => {
  it('the table of docs/errors.md lists exactly the codes of ERROR_CODES, with their meanings', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([A-Z_]+)` \| (.*) \|$/gm)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(rows)).toEqual(ERROR_CODES);
  });

  it('every error class of the tool is a KitError with a code of the table', () => {
    const errors = [
      new UsageError('CLI_USAGE', 'x'),
      new ClientError('CLIENT_NO_PROGRESS', 'x'),
      new FixtureError('FIXTURE_NO_PROGRESS', 'x'),
      new RecordingError('RECORDING_INVALID', 'x'),
      new AdminError('PROPS_ADMIN_FAILED', 'x'),
      new PropertySetupError('PROPS_SETUP', 'x'),
      new ReportError('REPORT_BAD_RUN_ID', 'x'),
      new ScenarioError('SCENARIO_INVALID', 'x'),
      new DatasetError('DATASET_INVALID', 'x'),
      new TargetError('TARGET_TIMEOUT', 'x'),
      new SimulatorOptionError('SIM_INVALID_OPTION', 'x'),
      new SimulatorPortInUseError('SIM_PORT_IN_USE', 'x', { port: 4747, host: '127.0.0.1' }),
      new TrafficInputError('TRAFFIC_BAD_INPUT', 'x'),
    ];
    for (const e of errors) {
      expect(e).toBeInstanceOf(KitError);
      expect(Object.keys(ERROR_CODES)).toContain(e.code);
    }
  });
});
