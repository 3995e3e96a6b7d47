/** `commerce-sim openapi [--server URL]`: an OpenAPI 3.1 document of the simulated surface (src/sim/openapi.ts). */
import { openApiDocument } from '../sim/openapi.js';
import { DEFAULT_BASE_URL } from '../sim/options.js';
import { defineCommand, type DefinedCommand } from './command.js';
import { EXIT_OK, UsageError } from './io.js';

const USAGE = `usage: commerce-sim openapi [--server URL]

Prints an OpenAPI 3.1 document (JSON) of the routes the simulator serves.
  --server URL   the servers[0].url of the document (default ${DEFAULT_BASE_URL})
  -h, --help     this help`;

export const openapi: DefinedCommand = defineCommand({
  name: 'openapi',
  usage: USAGE,
  options: { server: { type: 'string' } },
  main: async (values, io) => {
    if (values.server !== undefined && !URL.canParse(values.server)) throw new UsageError('CLI_USAGE', `--server takes an absolute URL, got '${values.server}'`);
    const doc = openApiDocument(values.server === undefined ? {} : { serverUrl: values.server });
    io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    return EXIT_OK;
  },
});
