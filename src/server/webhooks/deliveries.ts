import { signPayload } from '../../webhooks/signature.js';
import { checkTarget, type DeliveryErrorCategory, postTo, type Resolver } from './target.js';
import { now } from '../clock.js';
import { newId } from '../state/ids.js';
import type { WebhookRecord } from '../state/model.js';
import type { Store } from '../state/store.js';

export interface DeliveryAttempt {
  at: string;
  status?: number;
  error?: string;
  ms: number;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  type: string;
  createdAt: string;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: DeliveryAttempt[];
}

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

/** Sends signed events to the webhooks subscribed to them, retrying non-2xx answers. */
export class Deliverer {
  readonly #logs = new Map<string, Delivery[]>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inFlight = new Set<Promise<void>>();
  #closed = false;

  constructor(
    private readonly store: Store,
    private readonly options: DeliveryOptions,
  ) {}

  emit(workspaceId: string, type: string, data: unknown): void {
    const event = { id: newId('evt'), type, createdAt: now(), data };
    const body = JSON.stringify(event);
    for (const webhook of this.store.listWebhooks(workspaceId)) {
      if (!webhook.isActive || !webhook.events.includes(type)) continue;
      const delivery: Delivery = {
        id: newId('dlv'),
        webhookId: webhook.id,
        eventId: event.id,
        type,
        createdAt: event.createdAt,
        state: 'pending',
        attempts: [],
      };
      const log = this.#logs.get(workspaceId) ?? [];
      log.push(delivery);
      if (log.length > LOG_LIMIT) log.shift();
      this.#logs.set(workspaceId, log);
      this.#attempt(webhook, delivery, body);
    }
  }

  /** A workspace's deliveries, newest first. */
  deliveries(workspaceId: string): Delivery[] {
    return [...(this.#logs.get(workspaceId) ?? [])].reverse();
  }

  #attempt(webhook: WebhookRecord, delivery: Delivery, body: string) {
    const run = this.#send(webhook, delivery, body).finally(() => this.#inFlight.delete(run));
    this.#inFlight.add(run);
  }

  async #send(webhook: WebhookRecord, delivery: Delivery, body: string): Promise<void> {
    if (this.#closed || !this.store.webhooks.has(webhook.id)) return;
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
            'service-signature': signPayload(body, webhook.secret),
            'x-event-id': delivery.eventId,
            'x-event-type': delivery.type,
          },
          body,
          this.options.timeoutMs,
        );
      } catch (err) {
        attempt.error = (err as { category?: DeliveryErrorCategory }).category ?? 'unreachable';
      }
    } else attempt.error = target.unresolved ? 'unresolved' : 'blocked_address';
    attempt.ms = Math.round(performance.now() - started);
    delivery.attempts.push(attempt);
    const ok = attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300;
    this.options.log?.({
      delivery: delivery.id,
      webhook: webhook.id,
      type: delivery.type,
      status: attempt.status,
      error: attempt.error,
      attempt: delivery.attempts.length,
    });
    if (ok) {
      delivery.state = 'succeeded';
      return;
    }
    const delay = this.options.retrySchedule[delivery.attempts.length - 1];
    if (delay === undefined || this.#closed) {
      delivery.state = 'failed';
      return;
    }
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.#attempt(webhook, delivery, body);
    }, delay);
    timer.unref();
    this.#timers.add(timer);
  }

  /** Resolves when no delivery attempt is in flight (retries may still be scheduled). */
  async settled(): Promise<void> {
    while (this.#inFlight.size) await Promise.allSettled([...this.#inFlight]);
  }

  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
  }
}
