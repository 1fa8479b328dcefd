import { FairQueue } from '../fair-queue.js';
import type { WorkerJob, WorkerMessage } from './protocol.js';

/** How a document's reading ended: its error, or what OCR did. */
export type JobEnd = Omit<Extract<WorkerMessage, { end: true }>, 'id' | 'end' | 'next'>;

/**
 * The worker's documents, read one at a time, in turn across owners (workspaces) however many
 * kb serve sends ahead: one workspace's slow documents keep another's waiting behind the one
 * being read at most. It says which document it takes up, in the end of the one before (`next`)
 * or, taken up when none was being read, alone (`started`).
 */
export class WorkerQueue {
  readonly #waiting = new FairQueue<WorkerJob>();
  #busy = false;

  constructor(
    /** Reads a document, posting its chunks; never rejects. */
    private readonly read: (job: WorkerJob) => Promise<JobEnd>,
    private readonly post: (message: WorkerMessage) => void,
  ) {}

  push(job: WorkerJob): void {
    this.#waiting.push(job.owner, job);
    if (!this.#busy) void this.#work();
  }

  async #work(): Promise<void> {
    this.#busy = true;
    let job = this.#take();
    if (job) this.post({ id: job.id, started: true });
    while (job) {
      const end = await this.read(job);
      // Documents sent meanwhile are heard first: the next is taken in turn among them too.
      await new Promise((resolve) => setImmediate(resolve));
      const next = this.#take();
      this.post({ id: job.id, end: true, ...end, ...(next ? { next: next.id } : {}) });
      job = next;
    }
    this.#busy = false;
  }

  #take(): WorkerJob | undefined {
    const owner = this.#waiting.nextOwner();
    return owner === undefined ? undefined : this.#waiting.shift(owner);
  }
}
