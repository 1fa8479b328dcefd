// Runs `matches` expectations off the main thread: a pattern that backtracks for ever is stopped
// by terminating this worker, while kb eval goes on and still hears Ctrl-C.
import { parentPort } from 'node:worker_threads';

export interface PatternJob {
  id: number;
  source: string;
  flags: string;
  text: string;
}

parentPort?.on('message', ({ id, source, flags, text }: PatternJob) => {
  parentPort!.postMessage({ id, matched: new RegExp(source, flags).test(text) });
});
parentPort?.postMessage('ready');
