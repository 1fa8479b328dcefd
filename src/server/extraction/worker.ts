/**
 * The extraction worker: reads documents' text and cuts it into chunks off kb serve's event
 * loop. Jobs are taken one at a time, in the order they came, so that the pool can tell which
 * one a timeout or a crash belongs to.
 */
import { parentPort } from 'node:worker_threads';
import { extractChunks } from './extract-chunks.js';
import type { WorkerJob, WorkerResult } from './protocol.js';

let queue = Promise.resolve();
parentPort!.on('message', (job: WorkerJob) => {
  queue = queue.then(async () => {
    const result: WorkerResult = {
      id: job.id,
      ...(await extractChunks(job.filename, new Uint8Array(job.bytes))),
    };
    parentPort!.postMessage(result);
  });
});
