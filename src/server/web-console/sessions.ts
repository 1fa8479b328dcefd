import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A signed-in browser: the workspace its key opened, and the token its forms must carry. */
export interface Session {
  id: string;
  workspaceId: string;
  csrf: string;
  /** Which key opened it (a hash of it: the key itself is never kept here). */
  keyHash: string;
  createdAt: number;
  lastUsedAt: number;
  /** What the last change did, for the next page shown, then gone. */
  flash?: Notice;
}

/** A change's outcome, told once on the page after it. */
export type Notice = { deleted: string };

/** A sign-in under way: counted against its address until it proves to be the right key. */
export interface SignInAttempt {
  /** Seconds until the address may try again (nothing was counted), or 0 when this try counts. */
  retryAfter: number;
  /** The key was right: the try no longer counts against the address. */
  succeeded(): void;
}

/** A session unused this long ends (the files page keeps its session in use while it is open). */
export const IDLE_MS = 60 * 60 * 1000;
/** A session ends this long after its sign-in, in use or not. */
export const LIFETIME_MS = 12 * 60 * 60 * 1000;
/** Sessions one key may hold; a sign-in past it ends the one used longest ago. */
export const SESSIONS_PER_KEY = 20;
/** How often ended sessions and old failures are swept from memory. */
const SWEEP_MS = 5 * 60 * 1000;
/** Sign-ins allowed per client address in a minute that were not the right key. */
const MAX_FAILURES = 10;
const FAILURE_WINDOW_MS = 60_000;

const token = () => randomBytes(32).toString('base64url');
const hashOf = (key: string) => createHash('sha256').update(key).digest('base64url');

/**
 * The web console's sessions, in memory: a restart ends them all. A session id is random and
 * is all the cookie holds (never the key). Memory is bounded: sessions end when idle or old,
 * each key holds a limited number, and a timer (that keeps no process alive) sweeps the ended.
 * A sign-in counts against its address from when it starts until its key proves right.
 */
export class Sessions {
  readonly #all = new Map<string, Session>();
  // Each key's session ids; a Set iterates in insertion order and a session is moved to the end
  // when used, so the first is the one used longest ago.
  readonly #byKey = new Map<string, Set<string>>();
  readonly #failures = new Map<string, number[]>();
  readonly #sweeper = setInterval(() => this.sweep(), SWEEP_MS).unref();

  open(workspaceId: string, key: string): Session {
    const at = Date.now();
    const keyHash = hashOf(key);
    const session = { id: token(), workspaceId, csrf: token(), keyHash, createdAt: at, lastUsedAt: at };
    const ids = this.#byKey.get(keyHash) ?? new Set<string>();
    this.#byKey.set(keyHash, ids);
    for (const id of ids) {
      if (ids.size < SESSIONS_PER_KEY) break;
      this.close(id);
    }
    ids.add(session.id);
    this.#all.set(session.id, session);
    return session;
  }

  /** The session, now in use; undefined when there is none or it has ended. */
  get(id: string | undefined): Session | undefined {
    const session = id ? this.#all.get(id) : undefined;
    if (!session) return undefined;
    const at = Date.now();
    if (this.#ended(session, at)) {
      this.close(session.id);
      return undefined;
    }
    session.lastUsedAt = at;
    const ids = this.#byKey.get(session.keyHash)!;
    ids.delete(session.id);
    ids.add(session.id);
    return session;
  }

  close(id: string): void {
    const session = this.#all.get(id);
    if (!session) return;
    this.#all.delete(id);
    const ids = this.#byKey.get(session.keyHash);
    ids?.delete(id);
    if (ids && !ids.size) this.#byKey.delete(session.keyHash);
  }

  /** Sessions held (ended ones until they are swept). */
  get size(): number {
    return this.#all.size;
  }

  /** Addresses with recent failed sign-ins. */
  get addressesWatched(): number {
    return this.#failures.size;
  }

  /** Forgets ended sessions and failures older than the window. */
  sweep(): void {
    const at = Date.now();
    for (const session of this.#all.values()) if (this.#ended(session, at)) this.close(session.id);
    for (const address of [...this.#failures.keys()]) this.#recent(address);
  }

  /** Stops the sweeping timer (the service is closing). */
  stop(): void {
    clearInterval(this.#sweeper);
  }

  /** The session's notice, once: it is gone after this. */
  static takeFlash(session: Session): Notice | undefined {
    const text = session.flash;
    delete session.flash;
    return text;
  }

  /** Whether `given` is the session's anti-CSRF token (compared in constant time). */
  static csrfMatches(session: Session, given: string | undefined): boolean {
    if (!given) return false;
    const a = Buffer.from(session.csrf);
    const b = Buffer.from(given);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /**
   * Starts a sign-in from `address`: refused (retryAfter > 0) past the limit, else counted as
   * a failure at once, before its body is read, so that sign-ins whose keys arrive late cannot
   * all pass the check together.
   */
  startSignIn(address: string): SignInAttempt {
    const wait = this.#retryAfter(address);
    if (wait) return { retryAfter: wait, succeeded: () => {} };
    const at = Date.now();
    this.#failures.set(address, [...this.#recent(address), at]);
    return {
      retryAfter: 0,
      succeeded: () => {
        const recent = this.#failures.get(address);
        const i = recent?.indexOf(at) ?? -1;
        if (i >= 0) recent!.splice(i, 1);
        if (recent && !recent.length) this.#failures.delete(address);
      },
    };
  }

  /** Seconds until `address` may try again, or 0 when it may now. */
  #retryAfter(address: string): number {
    const recent = this.#recent(address);
    if (recent.length < MAX_FAILURES) return 0;
    return Math.max(1, Math.ceil((recent[0]! + FAILURE_WINDOW_MS - Date.now()) / 1000));
  }

  #ended(session: Session, at: number): boolean {
    return at - session.lastUsedAt >= IDLE_MS || at - session.createdAt >= LIFETIME_MS;
  }

  #recent(address: string): number[] {
    const since = Date.now() - FAILURE_WINDOW_MS;
    const recent = (this.#failures.get(address) ?? []).filter((at) => at > since);
    if (recent.length) this.#failures.set(address, recent);
    else this.#failures.delete(address);
    return recent;
  }
}
