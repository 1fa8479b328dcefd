import { signPayload } from '../webhooks/signature.js';
import { now } from './clock.js';
import { newId } from './ids.js';
import type { WebhookRecord } from './model.js';
import type { Store } from './store.js';

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
  log?: (line: Record<string, unknown>) => void;
}

export const DEFAULT_RETRY_SCHEDULE = [5_000, 30_000, 120_000, 600_000, 1_800_000];

/** Sends signed events to the webhooks subscribed to them, retrying non-2xx answers. */
export class Deliverer {
  readonly log: Delivery[] = [];
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
      this.log.push(delivery);
      if (this.log.length > 1000) this.log.shift();
      this.#attempt(webhook, delivery, body);
    }
  }

  #attempt(webhook: WebhookRecord, delivery: Delivery, body: string) {
    const run = this.#send(webhook, delivery, body).finally(() => this.#inFlight.delete(run));
    this.#inFlight.add(run);
  }

  async #send(webhook: WebhookRecord, delivery: Delivery, body: string): Promise<void> {
    if (this.#closed || !this.store.webhooks.has(webhook.id)) return;
    const started = performance.now();
    const attempt: DeliveryAttempt = { at: now(), ms: 0 };
    try {
      const response = await fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'kb-serve-webhooks/1',
          'service-signature': signPayload(body, webhook.secret),
          'x-event-id': delivery.eventId,
          'x-event-type': delivery.type,
        },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'manual',
      });
      await response.arrayBuffer().catch(() => undefined);
      attempt.status = response.status;
    } catch (err) {
      attempt.error =
        (err as Error).name === 'TimeoutError'
          ? 'timed out'
          : (((err as Error).cause as Error)?.message ?? (err as Error).message);
    }
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
