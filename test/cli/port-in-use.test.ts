/**
 * A busy port is the kit's SIM_PORT_IN_USE, one line naming the port, by both doors that listen:
 * `commerce-sim serve --port N` and `startSimulator({ port: N })`.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/cli/serve.js';
import { KitError, startSimulator } from '../../src/index.js';
import { captureIo } from '../support/cli-io.js';

let busy: Server;
let port: number;

beforeAll(async () => {
  busy = createServer();
  port = await new Promise<number>((resolve) => {
    busy.listen(0, '127.0.0.1', () => {
      const address = busy.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
});
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

describe('a busy port', () => {
  it('serve --port: one line naming the port, code SIM_PORT_IN_USE, exit 2', async () => {
    const c = captureIo();
    expect(await serve(['--port', String(port), '--accounts', '3'], c.io)).toBe(2);
    expect(c.out()).toBe('');
    expect(c.err()).toBe(`commerce-sim serve: port ${port} on 127.0.0.1 is already in use (another server listens there): choose another port, or 0 for a free one (SIM_PORT_IN_USE)\n`);
  });

  it('startSimulator({ port }): a KitError with code SIM_PORT_IN_USE naming the port', async () => {
    const started = startSimulator({ port, accounts: 3 });
    await expect(started).rejects.toBeInstanceOf(KitError);
    await expect(started).rejects.toMatchObject({ code: 'SIM_PORT_IN_USE', port, message: expect.stringContaining(`port ${port} on 127.0.0.1`) });
  });
});
