import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { tempDir } from '../helpers/cli.js';
import { api, startTestServer } from '../helpers/server.js';

// A new user's trial (#33, trial 19): "What does a systemd laptop do by default when I close the
// lid?" did not find logind.conf(5)'s `HandleLidSwitch= defaults to "suspend".` among 50 chunks:
// the setting says "lid" only inside its name.
let server: RunningServer;
let key: string;
beforeAll(async () => {
  const docs = tempDir();
  writeFileSync(
    join(docs, 'logind.conf.5.txt'),
    'HandleSuspendKeyLongPress= defaults to "hibernate", HandleHibernateKeyLongPress= defaults to "ignore". HandleLidSwitch= defaults to "suspend". HandleLidSwitchDocked= defaults to "ignore".\n',
  );
  writeFileSync(
    join(docs, 'journald.conf.5.txt'),
    'SystemMaxUse= and RuntimeMaxUse= control how much disk space the journal may use up at most.\n',
  );
  // Other settings' pages, so that "lid" is as rare as in a real folder.
  for (const name of ['sshd_config', 'smb.conf', 'nginx.conf', 'redis.conf', 'lvm.conf', 'named.conf'])
    writeFileSync(
      join(docs, `${name}.5.txt`),
      `The ${name} settings: each line sets one, and the default is used where none does.\n`,
    );
  server = await startTestServer({ docsDir: docs });
  key = Object.values(server.keys)[0]!;
});
afterAll(() => server.close());

describe('a setting named in CamelCase', () => {
  it('is found by the words of its name ("close the lid": HandleLidSwitch=)', async () => {
    const { id } = (await api(server, key, 'POST', '/v1/threads', {})).json.data;
    const reply = (
      await api(server, key, 'POST', `/v1/threads/${id}/messages`, {
        content: 'What does the lid switch default to?',
      })
    ).json.data.aiResponse;
    expect(reply.content).toContain('HandleLidSwitch= defaults to "suspend".');
    expect(reply.sources).toEqual(['logind.conf.5.txt']);
  });

  it('is found by its name whole too', async () => {
    const hits = (await api(server, key, 'GET', '/v1/search?q=HandleLidSwitch')).json.data;
    expect(hits[0].filename).toBe('logind.conf.5.txt');
  });
});
