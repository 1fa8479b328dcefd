import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AddressInfo, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runKb, tempDir } from '../helpers/cli.js';

describe('kb serve --port', () => {
  it('one wording for every port that is not one (exit 2), before anything starts', async () => {
    for (const args of [['--port', '99999'], ['--port', '-1'], ['--port=-1'], ['--port', 'abc']]) {
      const value = args.join('=').split('=').at(-1);
      const res = await runKb(['serve', ...args]);
      expect([args.join(' '), res.code, res.stderr]).toEqual([
        args.join(' '),
        2,
        `error: invalid port "${value}": expected a port from 0 to 65535\n`,
      ]);
    }
  });

  it('a port in use is a failure to start (exit 1), not a usage error; kb webhooks listen says the same', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as AddressInfo;
    const secret = join(tempDir(), 'secret.txt');
    writeFileSync(secret, 'whsec_port_test\n', { mode: 0o600 });
    try {
      for (const command of [['serve'], ['webhooks', 'listen', '--secret-file', secret]]) {
        const res = await runKb([...command, '--port', String(port)]);
        expect([command[0], res.code, res.stderr]).toEqual([
          command[0],
          1,
          `error: port ${port} is already in use\nhint: pick another with --port, or --port 0 for a free one\n`,
        ]);
      }
      const json = await runKb(['serve', '--port', String(port), '--json']);
      expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'port_in_use', exitCode: 1 } });
    } finally {
      taken.close();
    }
  });
});
