import { importPackage } from '../import-package.js';
import type { IO } from './streams.js';

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

const SILENT: Spinner = { update() {}, stop() {} };

/** An ora spinner on stderr, only where progress may be shown (a TTY, not CI). */
export async function startSpinner(io: IO, text: string): Promise<Spinner> {
  if (!io.showProgress) return SILENT;
  const { default: ora } = await importPackage<typeof import('ora')>('ora');
  const spinner = ora({
    text,
    stream: io.stderr as NodeJS.WritableStream & NodeJS.WriteStream,
    discardStdin: false,
  }).start();
  return {
    update: (next) => {
      spinner.text = next;
    },
    stop: () => spinner.stop(),
  };
}

/** Loads ora ahead of the first spinner (~70 ms), where progress may be shown. */
export function preloadSpinner(io: IO): void {
  if (io.showProgress) importPackage('ora').catch(() => {});
}
