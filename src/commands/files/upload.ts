import { basename } from 'node:path';
import { Command } from 'commander';
import { PayloadTooLargeError, UnprocessableError } from '../../api/errors.js';
import type { KbFile } from '../../api/types.js';
import { ExitCode, type ItemFailure, PartialFailure } from '../../errors.js';
import { Context } from '../../factory.js';
import { humanSize } from '../../io/format.js';
import { startSpinner } from '../../io/spinner.js';
import { sanitizeField } from '../../util/sanitize.js';
import { checkUserFile, readUserFile } from '../../util/user-file.js';
import { withExtension } from '../shared/extension.js';
import { runWait } from './wait.js';

/** The largest file kb reads to upload; the service says its own limit (kb serve: --max-file-size). */
const MAX_UPLOAD_BYTES = 2 * 1024 * 1024 * 1024 - 1;
/** An upload may take this long (the whole request, not each read). */
const UPLOAD_TIMEOUT_MS = 10 * 60 * 1000;

export const UPLOAD_NOTE =
  'An extension: kb serve takes uploads here (and in its web console at its address); the\npublished interface has no upload endpoint, so other services take them in their web app.';

interface UploadOptions {
  wait?: boolean;
  timeout?: string;
  interval?: string;
}

export default function uploadCommand(run = runUpload): Command {
  return new Command('upload')
    .description('upload files to be indexed (kb serve; other services: their web app)')
    .argument('<file...>', 'files to upload')
    .option('--wait', 'then wait until they are indexed, as kb files wait does')
    .option('--timeout <duration>', 'with --wait: give up after this long (default 10m)')
    .option('--interval <duration>', 'with --wait: longest time between checks (default 2s)')
    .addHelpText(
      'after',
      `
${UPLOAD_NOTE}

Prints each file's id (piped: one per line); on a terminal, a progress bar while it is sent.
With --wait, exits as kb files wait does: 0 when all are COMPLETED, 1 when one FAILED.

Examples:
  $ kb files upload handbook.pdf benefits.docx
  $ ID=$(kb files upload ./x.pdf) && kb files wait "$ID"
  $ kb files upload ./x.pdf --wait --timeout 2m`,
    )
    .action((files: string[], opts: UploadOptions, cmd: Command) => {
      // commander hands a --timeout after the verb to the root's global option of that name
      const timeout = (opts.timeout ?? Context.globalOption(cmd, 'timeout')) as string | undefined;
      return run(Context.for(cmd, { ownsTimeout: true }), files, { ...opts, timeout });
    });
}

export async function runUpload(ctx: Context, paths: string[], opts: UploadOptions): Promise<void> {
  // Every file is checked before any is sent: a typo in the last name loses no upload's id.
  for (const path of paths) checkUserFile(path, 'the file', MAX_UPLOAD_BYTES);
  const client = await ctx.client();
  const uploaded: KbFile[] = [];
  const failures: ItemFailure[] = [];
  for (const path of paths) {
    const bytes = readUserFile(path, 'the file', MAX_UPLOAD_BYTES);
    const name = basename(path);
    const progress = startSpinner(ctx.io, `Uploading ${sanitizeField(name)}…`);
    try {
      // A service without the extension refuses every file alike: said once, with where to go.
      const file = await withExtension(
        () =>
          client.files.upload(name, bytes, {
            signal: ctx.signal,
            timeoutMs: UPLOAD_TIMEOUT_MS,
            onProgress: (sent, total) =>
              progress.update(
                `Uploading ${sanitizeField(name)}  ${bar(sent, total)} ${Math.floor((100 * sent) / Math.max(1, total))}%  ${humanSize(sent)} of ${humanSize(total)}`,
              ),
          }),
        {
          missing: 'this service takes uploads in its web app, not through the API',
          hint: 'upload them there, then follow their indexing with `kb files wait ID`',
        },
      );
      progress.stop();
      uploaded.push(file);
    } catch (err) {
      progress.stop();
      // Refused for what the file is (too large, its name): said, and the others go on.
      // Anything else (the service without uploads, a key refused, the service gone, Ctrl-C)
      // stops here, with its own exit code, after saying what was uploaded before it.
      if (!(err instanceof PayloadTooLargeError || err instanceof UnprocessableError)) {
        printUploaded(ctx, uploaded);
        throw err;
      }
      failures.push({ id: name, error: err });
    }
  }
  printUploaded(ctx, uploaded);
  if (failures.length)
    throw new PartialFailure(
      `${failures.length} of ${paths.length} file${paths.length === 1 ? '' : 's'} not uploaded`,
      failures,
      ExitCode.failure,
    );
  if (opts.wait)
    await runWait(
      ctx,
      uploaded.map((f) => f.id),
      { timeout: opts.timeout ?? '10m', interval: opts.interval ?? '2s' },
    );
}

function printUploaded(ctx: Context, uploaded: KbFile[]): void {
  if (uploaded.length)
    ctx.output.result(uploaded, {
      line: (f) => `Uploaded ${f.originalFilename}: ${f.id} (${f.indexingStatus})`,
      fields: (f) => [f.id],
    });
}

/** A text progress bar, 20 cells. */
function bar(done: number, total: number): string {
  const cells = Math.round((20 * done) / Math.max(1, total));
  return `[${'#'.repeat(cells)}${'.'.repeat(20 - cells)}]`;
}
