import { randomBytes, timingSafeEqual } from 'node:crypto';

/** A signed-in browser: the workspace its key opened, and the token its forms must carry. */
export interface Session {
  id: string;
  workspaceId: string;
  csrf: string;
  expiresAt: number;
}

/** How long a session lasts without a sign-out. */
const SESSION_MS = 12 * 60 * 60 * 1000;
/** Failed sign-ins allowed per client address in a minute. */
const MAX_FAILURES = 10;
const FAILURE_WINDOW_MS = 60_000;

const token = () => randomBytes(32).toString('base64url');

/**
 * The web console's sessions, in memory: a restart ends them all. A session id is random and
 * is all the cookie holds (never the key); a wrong key counts against the address it came from.
 */
export class Sessions {
  readonly #all = new Map<string, Session>();
  readonly #failures = new Map<string, number[]>();

  open(workspaceId: string): Session {
    const session = { id: token(), workspaceId, csrf: token(), expiresAt: Date.now() + SESSION_MS };
    this.#all.set(session.id, session);
    return session;
  }

  get(id: string | undefined): Session | undefined {
    const session = id ? this.#all.get(id) : undefined;
    if (session && session.expiresAt <= Date.now()) {
      this.#all.delete(session.id);
      return undefined;
    }
    return session;
  }

  close(id: string): void {
    this.#all.delete(id);
  }

  /** Whether `given` is the session's anti-CSRF token (compared in constant time). */
  static csrfMatches(session: Session, given: string | undefined): boolean {
    if (!given) return false;
    const a = Buffer.from(session.csrf);
    const b = Buffer.from(given);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** Seconds until `address` may try again, or 0 when it may now. */
  retryAfter(address: string): number {
    const recent = this.#recent(address);
    if (recent.length < MAX_FAILURES) return 0;
    return Math.max(1, Math.ceil((recent[0]! + FAILURE_WINDOW_MS - Date.now()) / 1000));
  }

  failed(address: string): void {
    const recent = this.#recent(address);
    recent.push(Date.now());
    this.#failures.set(address, recent);
  }

  #recent(address: string): number[] {
    const since = Date.now() - FAILURE_WINDOW_MS;
    const recent = (this.#failures.get(address) ?? []).filter((at) => at > since);
    if (recent.length) this.#failures.set(address, recent);
    else this.#failures.delete(address);
    return recent;
  }
}
