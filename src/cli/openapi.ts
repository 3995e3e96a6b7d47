/** `commerce-sim openapi [--server URL]`: an OpenAPI 3.1 document of the simulated surface (src/sim/openapi.ts). */
import { parseArgs } from 'node:util';
import { openApiDocument } from '../sim/openapi.js';
import { EXIT_OK, UsageError, type Command } from './io.js';

const USAGE = `usage: commerce-sim openapi [--server URL]

Prints an OpenAPI 3.1 document (JSON) of the routes the simulator serves.
  --server URL   the servers[0].url of the document (default http://127.0.0.1:4747)`;

export const openapi: Command = async (argv, io) => {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: { server: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT_OK;
  }
  if (values.server !== undefined && !URL.canParse(values.server)) throw new UsageError(`--server takes an absolute URL, got '${values.server}'`);
  const doc = openApiDocument(values.server === undefined ? {} : { serverUrl: values.server });
  io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  return EXIT_OK;
};
