import { signPayload } from '../../webhooks/signature.js';
import { checkTarget, type DeliveryErrorCategory, postTo, type Resolver } from './target.js';
import { type Delivery, type DeliveryAttempt, DeliveryRows, type OutgoingDelivery } from './delivery-rows.js';
import { now } from '../clock.js';
import type { Database } from '../state/database.js';
import { newId } from '../state/ids.js';

export type { Delivery, DeliveryAttempt } from './delivery-rows.js';

export interface DeliveryOptions {
  /** Delays before each retry, in ms; its length is the number of retries. */
  retrySchedule: number[];
  timeoutMs: number;
  /** Deliver to loopback addresses too (--allow-local-webhooks). */
  allowLoopback: boolean;
  resolve: Resolver;
  log?: (line: Record<string, unknown>) => void;
}

/** Deliveries kept per workspace, newest last: one workspace's traffic never erases another's log. */
const LOG_LIMIT = 1000;

export const DEFAULT_RETRY_SCHEDULE = [5_000, 30_000, 120_000, 600_000, 1_800_000];

/**
 * Sends signed events to the webhooks subscribed to them, retrying non-2xx answers. Each
 * delivery and each attempt's outcome is written to the database, so a restart keeps the log
 * and resumes the retries still due, each at its time. The database failing to take a write
 * never stops a delivery: it is logged, and the delivery goes on from memory.
 */
export class Deliverer {
  readonly #rows: DeliveryRows;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inFlight = new Set<Promise<void>>();
  #closed = false;

  constructor(
    db: Database,
    private readonly options: DeliveryOptions,
  ) {
    this.#rows = new DeliveryRows(db);
    for (const { delivery, dueAt } of this.#stored('resume', () => this.#rows.pending()) ?? [])
      this.#later(delivery, Date.parse(dueAt) - Date.now());
  }

  emit(workspaceId: string, type: string, data: unknown): void {
    const event = { id: newId('evt'), type, createdAt: now(), data };
    const body = JSON.stringify(event);
    for (const webhook of this.#stored('read webhooks', () => this.#rows.webhooksOf(workspaceId)) ?? []) {
      if (!webhook.isActive || !webhook.events.includes(type)) continue;
      const delivery: OutgoingDelivery = {
        id: newId('dlv'),
        workspaceId,
        webhookId: webhook.id,
        eventId: event.id,
        type,
        createdAt: event.createdAt,
        state: 'pending',
        attempts: [],
        body,
      };
      this.#stored('add', () => this.#rows.add(delivery), delivery.id);
      this.#attempt(delivery);
    }
  }

  /** A workspace's latest deliveries (of one webhook, when given), newest first. */
  deliveries(workspaceId: string, webhookId?: string): Delivery[] {
    return this.#rows.list(workspaceId, webhookId, LOG_LIMIT);
  }

  #attempt(delivery: OutgoingDelivery) {
    const run = this.#send(delivery).finally(() => this.#inFlight.delete(run));
    this.#inFlight.add(run);
  }

  #later(delivery: OutgoingDelivery, ms: number) {
    const timer = setTimeout(
      () => {
        this.#timers.delete(timer);
        this.#attempt(delivery);
      },
      Math.max(0, ms) || 0,
    );
    timer.unref();
    this.#timers.add(timer);
  }

  async #send(delivery: OutgoingDelivery): Promise<void> {
    if (this.#closed) return;
    // A deleted webhook took its deliveries' rows with it: nothing more is sent for them.
    const webhook = this.#stored('read webhook', () => this.#rows.webhook(delivery.webhookId), delivery.id);
    if (!webhook) return;
    const started = performance.now();
    const attempt: DeliveryAttempt = { at: now(), ms: 0 };
    const url = new URL(webhook.url);
    // Checked again at each attempt (DNS may have changed since registration), and the
    // connection goes to the address that was checked.
    const target = await checkTarget(url, this.options.allowLoopback, this.options.resolve);
    if (target.ok) {
      try {
        attempt.status = await postTo(
          url,
          target,
          {
            'content-type': 'application/json',
            'user-agent': 'kb-serve-webhooks/1',
            'service-signature': signPayload(delivery.body, webhook.secret),
            'x-event-id': delivery.eventId,
            'x-event-type': delivery.type,
          },
          delivery.body,
          this.options.timeoutMs,
        );
      } catch (err) {
        attempt.error = (err as { category?: DeliveryErrorCategory }).category ?? 'unreachable';
      }
    } else attempt.error = target.unresolved ? 'unresolved' : 'blocked_address';
    attempt.ms = Math.round(performance.now() - started);
    delivery.attempts.push(attempt);
    this.options.log?.({
      delivery: delivery.id,
      webhook: webhook.id,
      type: delivery.type,
      status: attempt.status,
      error: attempt.error,
      attempt: delivery.attempts.length,
    });
    const ok = attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300;
    const delay = ok ? undefined : this.options.retrySchedule[delivery.attempts.length - 1];
    delivery.state = ok ? 'succeeded' : delay === undefined ? 'failed' : 'pending';
    const dueAt = delay === undefined ? null : new Date(Date.now() + delay).toISOString();
    this.#stored('attempt', () => this.#rows.attempted(delivery, dueAt), delivery.id);
    if (delay === undefined) {
      this.#stored('trim', () => this.#rows.trim(delivery.workspaceId, LOG_LIMIT), delivery.id);
      return;
    }
    // Once closed, the retry stays pending in the database: the next start makes it.
    if (!this.#closed) this.#later(delivery, delay);
  }

  /** `work` on the database; when it fails, a log line, and undefined. */
  #stored<T>(step: string, work: () => T, delivery?: string): T | undefined {
    try {
      return work();
    } catch (err) {
      const { code, message } = err as { code?: string; message?: string };
      this.options.log?.({ deliveryDatabaseError: code ?? message ?? String(err), step, delivery });
      return undefined;
    }
  }

  /** Resolves when no delivery attempt is in flight (retries may still be scheduled). */
  async settled(): Promise<void> {
    while (this.#inFlight.size) await Promise.allSettled([...this.#inFlight]);
  }

  /** Stops sending; the deliveries still pending stay so in the database, for the next start. */
  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
  }
}
