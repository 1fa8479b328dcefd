import { importPackage } from '../import-package.js';
import type { IO } from './streams.js';

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

type Ora = ReturnType<typeof import('ora').default>;

/** Work that ends sooner shows no spinner: a spinner that flashes for a moment is noise. */
const SPINNER_DELAY_MS = 150;

const SILENT: Spinner = { update() {}, stop() {} };

/**
 * An ora spinner on stderr, only where progress may be shown (a TTY, not CI), and only once the
 * work has taken SPINNER_DELAY_MS: fast answers neither show one nor wait for ora to load (~70 ms).
 */
export function startSpinner(io: IO, text: string, delayMs = SPINNER_DELAY_MS): Spinner {
  // ora counts the lines it must clear by the terminal's width: on one that reports none (a
  // pseudo-terminal without a size, as `script` makes) it would clear lines for ever.
  if (!io.showProgress || !((io.stderr.columns ?? 0) > 0)) return SILENT;
  let current = text;
  let ora: Ora | undefined;
  let stopped = false;
  const timer = setTimeout(() => {
    importPackage<typeof import('ora')>('ora').then(
      ({ default: create }) => {
        if (stopped) return;
        ora = create({
          text: current,
          stream: io.stderr as NodeJS.WritableStream & NodeJS.WriteStream,
          discardStdin: false,
          // NO_COLOR, the color setting and --no-color, as for everything else on stderr.
          color: io.errColor.level > 0 ? 'cyan' : false,
        }).start();
      },
      () => {}, // no spinner, then
    );
  }, delayMs);
  timer.unref();
  return {
    update: (next) => {
      current = next;
      if (ora) ora.text = next;
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      ora?.stop();
    },
  };
}

/** Loads ora ahead of the first spinner, where progress may be shown. */
export function preloadSpinner(io: IO): void {
  if (io.showProgress) importPackage('ora').catch(() => {});
}
