/** One owner's items, first in first out, without moving the array on every take. */
class Line<T> {
  #items: T[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  peek(): T | undefined {
    return this.#items[this.#head];
  }

  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined as T;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }
}

/**
 * Items queued by owner (a workspace) and served in turn, each owner's in the order they came.
 * Start-time fair queueing with every item counted as one: an item's start is its owner's
 * previous item's finish, or the start of the item last served if that is later (an owner that
 * was idle joins at the present, with no credit saved up); the item with the earliest start goes
 * next. However many items one owner queues, another's waits behind at most one of them.
 */
export class FairQueue<T> {
  readonly #lines = new Map<string, Line<{ item: T; start: number }>>();
  /** Each owner's last item's finish (start + 1); one no later than `#now` counts as none. */
  readonly #finish = new Map<string, number>();
  /** The start of the item last served. */
  #now = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  push(owner: string, item: T): void {
    let line = this.#lines.get(owner);
    if (!line) this.#lines.set(owner, (line = new Line()));
    const start = Math.max(this.#now, this.#finish.get(owner) ?? 0);
    this.#finish.set(owner, start + 1);
    line.push({ item, start });
    this.#size++;
  }

  /**
   * The owner whose turn it is, among those whose next item `ready` accepts (all, without it).
   * Take their items with `shift(owner)`.
   */
  nextOwner(ready?: (owner: string, next: T) => boolean): string | undefined {
    let next: string | undefined;
    let start = Infinity;
    for (const [owner, line] of this.#lines) {
      const head = line.peek()!;
      if (head.start < start && (!ready || ready(owner, head.item))) {
        next = owner;
        start = head.start;
      }
    }
    if (next !== undefined) this.#now = start;
    return next;
  }

  /** The next item of `owner`'s, left in place. */
  peek(owner: string): T | undefined {
    return this.#lines.get(owner)?.peek()?.item;
  }

  /** Takes the next item of `owner`'s. */
  shift(owner: string): T | undefined {
    const line = this.#lines.get(owner);
    if (!line) return undefined;
    const { item } = line.shift()!;
    this.#size--;
    if (!line.length) {
      this.#lines.delete(owner);
      this.#forgetPast();
    }
    return item;
  }

  /** The item next in line of each owner. */
  *heads(): IterableIterator<T> {
    for (const line of this.#lines.values()) yield line.peek()!.item;
  }

  /** Takes every item. */
  drain(): T[] {
    const items: T[] = [];
    for (const owner of [...this.#lines.keys()])
      while (this.#lines.has(owner)) items.push(this.shift(owner)!);
    return items;
  }

  /** Finishes no later than now weigh nothing: dropped, so that owners long gone cost no memory. */
  #forgetPast(): void {
    if (this.#finish.size <= 2 * this.#lines.size + 64) return;
    for (const [owner, finish] of this.#finish) if (finish <= this.#now) this.#finish.delete(owner);
  }
}
