import { describe, expect, it } from 'vitest';
import type { WorkerJob, WorkerMessage } from '../../src/server/ingest/extraction/protocol.js';
import { type JobEnd, WorkerQueue } from '../../src/server/ingest/extraction/worker-queue.js';

const job = (id: number, owner: string): WorkerJob => ({
  id,
  owner,
  filename: `${owner}-${id}.txt`,
  bytes: new ArrayBuffer(0),
  offset: 0,
  length: 0,
});

/** A queue whose reads end when the test says; what it posts, in order. */
function queue() {
  const posted: WorkerMessage[] = [];
  const reading: { id: number; end: (end?: JobEnd) => void }[] = [];
  const q = new WorkerQueue(
    (j) => new Promise<JobEnd>((resolve) => reading.push({ id: j.id, end: (end = {}) => resolve(end) })),
    (m) => posted.push(m),
  );
  const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
  return { q, posted, reading, settle };
}

describe('the extraction worker queue', () => {
  it('says which document it takes up: alone when none was being read, else in the end of the one before', async () => {
    const { q, posted, reading, settle } = queue();
    q.push(job(1, 'a'));
    q.push(job(2, 'a'));
    await settle();
    expect(posted).toEqual([{ id: 1, started: true }]);
    reading[0]!.end({ ocr: { pages: 1, meanConfidence: 90 } });
    await settle();
    expect(posted.slice(1)).toEqual([{ id: 1, end: true, ocr: { pages: 1, meanConfidence: 90 }, next: 2 }]);
    reading[1]!.end({ error: { code: 'parse_error', message: 'no' } });
    await settle();
    expect(posted.at(-1)).toEqual({ id: 2, end: true, error: { code: 'parse_error', message: 'no' } });
    q.push(job(3, 'b'));
    await settle();
    expect(posted.at(-1)).toEqual({ id: 3, started: true });
  });

  it("takes documents in turn across owners: one's many documents sent ahead keep another's behind the one being read", async () => {
    const { q, reading, settle } = queue();
    for (let id = 1; id <= 5; id++) q.push(job(id, 'a'));
    await settle();
    q.push(job(6, 'b'));
    for (let i = 0; i < 6; i++) {
      reading[i]!.end();
      await settle();
    }
    expect(reading.map((r) => r.id)).toEqual([1, 6, 2, 3, 4, 5]);
  });

  it('hears documents sent while one is read before it takes the next', async () => {
    const { q, posted, reading, settle } = queue();
    q.push(job(1, 'a'));
    await settle();
    reading[0]!.end();
    // Sent as the first ended (a message is heard after the read's end): the worker takes it up
    // next, and says so in the first's end.
    setImmediate(() => q.push(job(2, 'b')));
    await settle();
    expect(posted).toEqual([
      { id: 1, started: true },
      { id: 1, end: true, next: 2 },
    ]);
  });
});
