import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase, scalar } from '../../src/server/state/database.js';
import { Deliverer, type Delivery, type DeliveryOptions } from '../../src/server/webhooks/deliveries.js';
import { verifySignature } from '../../src/webhooks/signature.js';
import { tempDir } from '../helpers/cli.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { api, startTestServer } from '../helpers/server.js';

const SECRET = 'whsec_test';
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function database(path = join(tempDir(), 'state.db')): Database {
  const db = openDatabase(path);
  cleanups.push(() => db.open && db.close());
  return db;
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  cleanups.push(() => r.close());
  return r;
}

/** A workspace (made when missing) and a webhook in it, as the Store writes them. */
function addWebhook(db: Database, workspaceId: string, url: string, id = `wh_${workspaceId}`): string {
  db.prepare('INSERT OR IGNORE INTO workspaces (id, name, created_at) VALUES (?, ?, ?)').run(
    workspaceId,
    workspaceId,
    new Date().toISOString(),
  );
  db.prepare(
    'INSERT INTO webhooks (id, workspace_id, url, events, secret, is_active, created_at) VALUES (?, ?, ?, ?, ?, 1, ?)',
  ).run(id, workspaceId, url, JSON.stringify(['file.indexed']), SECRET, new Date().toISOString());
  return id;
}

function deliverer(db: Database, options: Partial<DeliveryOptions> = {}): Deliverer {
  const d = new Deliverer(db, {
    retrySchedule: [],
    timeoutMs: 5_000,
    allowLoopback: true,
    // Any other name does not resolve: its attempt fails at once, `unresolved`.
    resolve: async (hostname) => {
      throw Object.assign(new Error(`${hostname} not found`), { code: 'ENOTFOUND' });
    },
    ...options,
  });
  cleanups.push(() => d.close());
  return d;
}

async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(20);
  }
}

const stateOf = (db: Database, id: string) => scalar(db, 'SELECT state FROM deliveries WHERE id = ?', id);

describe('webhook deliveries in the database', () => {
  it('resumes a pending retry after a restart: delivered once, signed, at its stored time', async () => {
    const path = join(tempDir(), 'state.db');
    const hook = await receiver();
    hook.statuses.push(500);
    let db = database(path);
    addWebhook(db, 'ws', hook.url);
    const first = deliverer(db, { retrySchedule: [1_000, 1_000] });
    first.emit('ws', 'file.indexed', { fileId: 'f_1' });
    await first.settled();
    expect(hook.got).toHaveLength(1);
    const failedAt = Date.now();
    const [pending] = first.deliveries('ws');
    expect(pending).toMatchObject({ state: 'pending', attempts: [{ status: 500 }] });
    first.close();
    db.close();
    expect(stateOf(openDatabase(path), pending!.id)).toBe('pending');

    db = database(path);
    const second = deliverer(db, { retrySchedule: [1_000, 1_000] });
    await sleep(300);
    expect(hook.got).toHaveLength(1);
    await until(() => hook.got.length === 2);
    expect(Date.now() - failedAt).toBeGreaterThanOrEqual(900);
    await second.settled();
    const retry = hook.got[1]!;
    expect(retry.body).toBe(hook.got[0]!.body);
    expect(JSON.parse(retry.body)).toMatchObject({ type: 'file.indexed', data: { fileId: 'f_1' } });
    expect(verifySignature(retry.body, retry.headers['service-signature'] as string, SECRET)).toMatchObject({
      valid: true,
    });
    expect(second.deliveries('ws')).toMatchObject([
      { id: pending!.id, state: 'succeeded', attempts: [{ status: 500 }, { status: 200 }] },
    ]);
    second.close();
    deliverer(db, { retrySchedule: [1_000, 1_000] });
    await sleep(300);
    expect(hook.got).toHaveLength(2);
  });

  it('sends an overdue pending delivery at once after a restart', async () => {
    const path = join(tempDir(), 'state.db');
    const hook = await receiver();
    hook.statuses.push(503);
    let db = database(path);
    addWebhook(db, 'ws', hook.url);
    const first = deliverer(db, { retrySchedule: [300] });
    first.emit('ws', 'file.indexed', { fileId: 'f_1' });
    await first.settled();
    first.close();
    db.close();
    await sleep(600);

    // Overdue by 300 ms: sent now, not a retry interval after the restart (20 s here, so that a
    // loaded machine's delay cannot be taken for it).
    db = database(path);
    const started = Date.now();
    deliverer(db, { retrySchedule: [20_000] });
    await until(() => hook.got.length === 2);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('keeps the delivery log across a restart', async () => {
    const path = join(tempDir(), 'state.db');
    const hook = await receiver();
    let db = database(path);
    addWebhook(db, 'ws', hook.url);
    addWebhook(db, 'ws', 'https://gone.example/', 'wh_gone');
    const first = deliverer(db);
    first.emit('ws', 'file.indexed', { fileId: 'f_1' });
    first.emit('ws', 'file.indexed', { fileId: 'f_2' });
    await first.settled();
    const log = first.deliveries('ws');
    expect(log).toHaveLength(4);
    expect(log.map((d) => d.state).sort()).toEqual(['failed', 'failed', 'succeeded', 'succeeded']);
    first.close();
    db.close();

    db = database(path);
    const second = deliverer(db);
    expect(second.deliveries('ws')).toEqual(log);
    expect(second.deliveries('ws', 'wh_gone')).toEqual(log.filter((d) => d.webhookId === 'wh_gone'));
    expect(second.deliveries('ws', 'wh_gone')[0]!.attempts[0]).toMatchObject({ error: 'unresolved' });
  });

  it('caps the log per workspace, in the database too', async () => {
    const db = database();
    addWebhook(db, 'a', 'https://a.example/');
    addWebhook(db, 'b', 'https://b.example/');
    const d = deliverer(db);
    d.emit('b', 'file.indexed', { fileId: 'f_b' });
    for (let i = 0; i < 1005; i++) d.emit('a', 'file.indexed', { fileId: `f_${i}` });
    await d.settled();
    expect(d.deliveries('a')).toHaveLength(1000);
    expect(d.deliveries('b')).toHaveLength(1);
    const rows = (ws: string) => scalar(db, 'SELECT count(*) FROM deliveries WHERE workspace_id = ?', ws);
    expect(rows('a')).toBe(1000);
    expect(rows('b')).toBe(1);
    // The oldest went first.
    const withFile = (fileId: string) =>
      scalar(db, "SELECT count(*) FROM deliveries WHERE json_extract(body, '$.data.fileId') = ?", fileId);
    expect([withFile('f_0'), withFile('f_4'), withFile('f_5'), withFile('f_1004')]).toEqual([0, 0, 1, 1]);
  });

  it('does not send the pending deliveries of a deleted webhook, now or after a restart', async () => {
    const path = join(tempDir(), 'state.db');
    const hook = await receiver();
    hook.statuses.push(500, 500);
    let db = database(path);
    addWebhook(db, 'ws', hook.url, 'wh_live');
    addWebhook(db, 'ws', `${hook.url}?later`, 'wh_later');
    const first = deliverer(db, { retrySchedule: [400] });
    first.emit('ws', 'file.indexed', { fileId: 'f_1' });
    await first.settled();
    expect(hook.got).toHaveLength(2);
    db.prepare('DELETE FROM webhooks WHERE id = ?').run('wh_live');
    expect(scalar(db, "SELECT count(*) FROM deliveries WHERE webhook_id = 'wh_live'")).toBe(0);
    first.close();
    db.close();

    db = database(path);
    db.prepare('DELETE FROM webhooks WHERE id = ?').run('wh_later');
    const second = deliverer(db, { retrySchedule: [400] });
    await sleep(700);
    await second.settled();
    expect(hook.got).toHaveLength(2);
    expect(second.deliveries('ws')).toEqual([]);
  });

  it('does not send a retry whose webhook is deleted while it waits', async () => {
    const hook = await receiver();
    hook.statuses.push(500);
    const db = database();
    addWebhook(db, 'ws', hook.url);
    const d = deliverer(db, { retrySchedule: [200] });
    d.emit('ws', 'file.indexed', { fileId: 'f_1' });
    await d.settled();
    db.prepare('DELETE FROM webhooks WHERE id = ?').run('wh_ws');
    await sleep(500);
    await d.settled();
    expect(hook.got).toHaveLength(1);
  });

  it('goes on delivering when the database refuses writes, and says so', async () => {
    const hook = await receiver();
    const db = database();
    addWebhook(db, 'ws', hook.url);
    const lines: Record<string, unknown>[] = [];
    const d = deliverer(db, { log: (line) => lines.push(line) });
    db.exec('PRAGMA query_only = ON');
    expect(() => d.emit('ws', 'file.indexed', { fileId: 'f_1' })).not.toThrow();
    await d.settled();
    expect(hook.got).toHaveLength(1);
    expect(
      verifySignature(hook.got[0]!.body, hook.got[0]!.headers['service-signature'] as string, SECRET).valid,
    ).toBe(true);
    expect(lines.filter((l) => l.deliveryDatabaseError)).not.toHaveLength(0);
    expect(lines.find((l) => l.deliveryDatabaseError)).toMatchObject({
      deliveryDatabaseError: expect.stringMatching(/READONLY/),
    });
  });

  it('does not throw out of emit or close when the database is closed', async () => {
    const db = database();
    addWebhook(db, 'ws', 'https://a.example/');
    const lines: Record<string, unknown>[] = [];
    const d = deliverer(db, { log: (line) => lines.push(line) });
    db.close();
    expect(() => d.emit('ws', 'file.indexed', { fileId: 'f_1' })).not.toThrow();
    await d.settled();
    expect(() => d.close()).not.toThrow();
    expect(lines.filter((l) => l.deliveryDatabaseError)).not.toHaveLength(0);
  });
});

describe('kb serve with --data', () => {
  it('keeps the delivery log and a pending retry across a restart', async () => {
    const hook = await receiver();
    hook.statuses.push(500);
    const key = 'kb_deliveries_restart_test';
    const options = {
      dataFile: join(tempDir(), 'state.db'),
      apiKeys: [`main:${key}`],
      allowLocalWebhooks: true,
      webhookRetrySchedule: [1_000],
    };
    let server = await startTestServer(options);
    cleanups.push(() => server.close());
    const webhook = (
      await api(server, key, 'POST', '/v1/webhooks', { url: hook.url, events: ['thread.message.created'] })
    ).json.data;
    const thread = (await api(server, key, 'POST', '/v1/threads', { title: 'x' })).json.data;
    await api(server, key, 'POST', `/v1/threads/${thread.id}/messages`, { content: 'hello' });
    await until(() => hook.got.length === 2);
    await server.service.deliverer.settled();
    await server.close();

    server = await startTestServer(options);
    await until(() => hook.got.length === 3);
    await server.service.deliverer.settled();
    expect(hook.got[2]!.body).toBe(hook.got[0]!.body);
    const log = (await api(server, key, 'GET', `/v1/webhooks/${webhook.id}/deliveries`)).json;
    expect(log.meta).toMatchObject({ returned: 2 });
    expect(log.data.map((d: Delivery) => [d.state, d.attempts.map((a) => a.status)]).sort()).toEqual([
      ['succeeded', [200]],
      ['succeeded', [500, 200]],
    ]);
  });
});
