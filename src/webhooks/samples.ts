import { randomBytes } from 'node:crypto';

export { WEBHOOK_EVENTS as EVENT_KINDS } from '../api/types.js';

/** A sample event of a kind, shaped like the local service's deliveries. */
export function sampleEvent(kind: string, now = new Date()) {
  const id = `evt_test_${randomBytes(8).toString('hex')}`;
  const createdAt = now.toISOString();
  const data =
    kind === 'file.indexed'
      ? {
          fileId: 'file_sample',
          originalFilename: 'handbook.pdf',
          indexingStatus: 'COMPLETED',
          chunkCount: 12,
          indexingError: null,
        }
      : {
          threadId: 'thr_sample',
          message: { id: 'msg_sample', role: 'assistant', content: 'This is a sample reply.', createdAt },
        };
  return { id, type: kind, createdAt, data };
}
