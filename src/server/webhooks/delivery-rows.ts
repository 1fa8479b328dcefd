import { type Database, prepared } from '../state/database.js';

export interface DeliveryAttempt {
  at: string;
  status?: number;
  error?: string;
  ms: number;
}

/** A delivery as GET /v1/webhooks/:id/deliveries shows it. */
export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  type: string;
  createdAt: string;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: DeliveryAttempt[];
}

/** A delivery with what it takes to send it (again): its workspace and the event as sent. */
export interface OutgoingDelivery extends Delivery {
  workspaceId: string;
  body: string;
}

/** What a delivery needs of its webhook. */
export interface WebhookTarget {
  id: string;
  url: string;
  secret: string;
  events: string[];
  isActive: boolean;
}

const DELIVERY_COLUMNS = 'id, webhook_id, event_id, type, created_at, state, attempts';

/** The deliveries table (migration 2) and the webhooks it reads: one small statement a call, prepared once. */
export class DeliveryRows {
  constructor(private readonly db: Database) {}

  webhooksOf(workspaceId: string): WebhookTarget[] {
    return this.#rows(
      'SELECT id, url, secret, events, is_active FROM webhooks WHERE workspace_id = ? ORDER BY created_at DESC, id DESC',
      workspaceId,
    ).map(toWebhook);
  }

  webhook(id: string): WebhookTarget | undefined {
    const row = this.#rows('SELECT id, url, secret, events, is_active FROM webhooks WHERE id = ?', id)[0];
    return row && toWebhook(row);
  }

  /** A new delivery, due now. */
  add(d: OutgoingDelivery): void {
    prepared(
      this.db,
      `INSERT INTO deliveries (id, workspace_id, webhook_id, event_id, type, body, created_at, state, attempts, next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      d.id,
      d.workspaceId,
      d.webhookId,
      d.eventId,
      d.type,
      d.body,
      d.createdAt,
      d.state,
      '[]',
      d.createdAt,
    );
  }

  /** The outcome of an attempt: its state, attempts so far, and when it is due again (pending). */
  attempted(d: Delivery, nextAttemptAt: string | null): void {
    prepared(this.db, 'UPDATE deliveries SET state = ?, attempts = ?, next_attempt_at = ? WHERE id = ?').run(
      d.state,
      JSON.stringify(d.attempts),
      nextAttemptAt,
      d.id,
    );
  }

  /** Deletes a workspace's finished deliveries older than its newest `keep` (pending ones are retries to make). */
  trim(workspaceId: string, keep: number): void {
    prepared(
      this.db,
      `DELETE FROM deliveries WHERE workspace_id = ?1 AND state != 'pending'
         AND seq <= (SELECT seq FROM deliveries WHERE workspace_id = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)`,
    ).run(workspaceId, keep);
  }

  /** A workspace's newest `limit` deliveries (of one webhook, when given), newest first. */
  list(workspaceId: string, webhookId: string | undefined, limit: number): Delivery[] {
    const rows = webhookId
      ? this.#rows(
          `SELECT ${DELIVERY_COLUMNS} FROM deliveries WHERE webhook_id = ? AND workspace_id = ? ORDER BY seq DESC LIMIT ?`,
          webhookId,
          workspaceId,
          limit,
        )
      : this.#rows(
          `SELECT ${DELIVERY_COLUMNS} FROM deliveries WHERE workspace_id = ? ORDER BY seq DESC LIMIT ?`,
          workspaceId,
          limit,
        );
    return rows.map(toDelivery);
  }

  /** The deliveries still to be tried, with when each is due. */
  pending(): { delivery: OutgoingDelivery; dueAt: string }[] {
    return this.#rows(
      `SELECT ${DELIVERY_COLUMNS}, workspace_id, body, next_attempt_at FROM deliveries
       WHERE state = 'pending' ORDER BY next_attempt_at`,
    ).map((row) => ({
      delivery: { ...toDelivery(row), workspaceId: row[7] as string, body: row[8] as string },
      dueAt: row[9] as string,
    }));
  }

  // Raw rows: libsql's objects carry an extra `_metadata` property.
  #rows(sql: string, ...params: unknown[]): unknown[][] {
    return prepared(this.db, sql)
      .raw()
      .all(...params) as unknown[][];
  }
}

function toWebhook(row: unknown[]): WebhookTarget {
  return {
    id: row[0] as string,
    url: row[1] as string,
    secret: row[2] as string,
    events: JSON.parse(row[3] as string) as string[],
    isActive: Number(row[4]) === 1,
  };
}

function toDelivery(row: unknown[]): Delivery {
  return {
    id: row[0] as string,
    webhookId: row[1] as string,
    eventId: row[2] as string,
    type: row[3] as string,
    createdAt: row[4] as string,
    state: row[5] as Delivery['state'],
    attempts: JSON.parse(row[6] as string) as DeliveryAttempt[],
  };
}
