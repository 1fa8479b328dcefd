import type { Context } from '../../factory.js';
import { startSpinner, type Spinner } from '../../io/spinner.js';
import type { IndexingProgress } from '../../server/ingest/indexer.js';
import { formatDuration } from '../../util/duration.js';
import { safeJson, sanitizeText } from '../../util/sanitize.js';

const POLL_MS = 250;
const count = (n: number) => n.toLocaleString('en-US');
const size = (bytes: number) =>
  bytes < 1e6 ? `${Math.ceil(bytes / 1e3)} kB` : `${(bytes / 1e6).toFixed(1)} MB`;
const documents = (n: number) => `${count(n)} document${n === 1 ? '' : 's'}`;

/**
 * "Indexing 12,345 of 20,000 documents · 40.2 MB of 57.1 MB · 8.1 MB/s · about 3s left", and while
 * a scan is read "· scan.pdf: OCR of page 3 of 12". The time left goes by the files' sizes, not
 * their number: one large file left is most of the work.
 */
export function describeIndexing(progress: IndexingProgress, nowMs: number): string {
  const elapsed = Math.max(1, nowMs - progress.startedAt);
  const parts = [`Indexing ${count(progress.done)} of ${documents(progress.total)}`];
  if (progress.sizeTotal > 0) parts.push(`${size(progress.sizeDone)} of ${size(progress.sizeTotal)}`);
  if (progress.done > 0) {
    parts.push(`${(progress.bytesDone / 1e6 / (elapsed / 1000)).toFixed(1)} MB/s`);
    const left =
      progress.sizeDone > 0
        ? ((progress.sizeTotal - progress.sizeDone) * elapsed) / progress.sizeDone
        : ((progress.total - progress.done) * elapsed) / progress.done;
    parts.push(`about ${formatDuration(left)} left`);
  }
  const scan = progress.scanning;
  if (scan) parts.push(`${sanitizeText(scan.name)}: OCR of page ${count(scan.page)} of ${count(scan.pages)}`);
  return parts.join(' · ');
}

/**
 * "Indexed 20,000 documents (57.1 MB) in 7.7s; every document is searchable", or when some
 * failed "Indexed 5 of 8 documents (17 kB) in 0.4s; 3 failed: kb files list --status FAILED".
 */
export function describeIndexed(progress: IndexingProgress, nowMs: number): string {
  const took = `(${size(progress.bytesDone)}) in ${formatDuration(nowMs - progress.startedAt)}`;
  if (progress.failed === 0)
    return `Indexed ${documents(progress.done)} ${took}; every document is searchable`;
  return `Indexed ${count(progress.done - progress.failed)} of ${documents(progress.done)} ${took}; ${count(progress.failed)} failed: kb files list --status FAILED`;
}

/** "  hr/scan.pdf: no_text_layer: 12 pages, no extractable text: …", one per named failure. */
export function describeFailures(progress: IndexingProgress): string[] {
  const lines = progress.failures.map((f) => `  ${f.name}: ${f.code}: ${f.message}`);
  const unnamed = progress.failed - progress.failures.length;
  if (unnamed > 0) lines.push(`  and ${count(unnamed)} more`);
  return lines;
}

/**
 * kb serve's indexing, on stderr: on a terminal a spinner with the documents done of the total,
 * the rate and the time left; on a terminal or not, one line each time indexing settles.
 * Returns a function that stops it.
 */
export function showIndexing(ctx: Context, progress: () => IndexingProgress): () => void {
  let spinner: Spinner | undefined;
  let reported = -1;
  const poll = () => {
    const now = progress();
    if (!now.idle) {
      const text = describeIndexing(now, Date.now());
      if (spinner) spinner.update(text);
      else spinner = startSpinner(ctx.io, text, 0);
      return;
    }
    spinner?.stop();
    spinner = undefined;
    if (now.total > 0 && now.startedAt !== reported) {
      reported = now.startedAt;
      const finishedAt = now.finishedAt ?? Date.now();
      if (ctx.format === 'human') {
        const lines = [...describeFailures(now).map(sanitizeText), describeIndexed(now, finishedAt)];
        ctx.io.err(`${lines.join('\n')}\n`);
        return;
      }
      // For scripts: one JSON line per failed file, then one for the whole.
      const lines = now.failures.map((f) => safeJson({ event: 'file.failed', ...f }));
      const { done, failed, bytesDone } = now;
      lines.push(
        safeJson({
          event: 'indexed',
          documents: done,
          completed: done - failed,
          failed,
          bytes: bytesDone,
          ms: finishedAt - now.startedAt,
        }),
      );
      ctx.io.err(`${lines.join('\n')}\n`);
    }
  };
  poll();
  const timer = setInterval(poll, POLL_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    spinner?.stop();
  };
}
