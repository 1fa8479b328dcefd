import { Command } from 'commander';
import type { KbFile } from '../../api/types.js';
import { Context } from '../../factory.js';
import { fileByIdOrName } from './file-by-name.js';
import { colorStatus, humanSize } from '../../io/format.js';
import type { Field } from '../../io/output.js';

const SHOWN = new Set([
  'id',
  'originalFilename',
  'fileSize',
  'mimeType',
  'indexingStatus',
  'createdAt',
  'indexingError',
  'error',
]);

/** The indexing error of a detail record, in whichever shape the service gives it. */
export function indexingError(file: KbFile): { code?: string; message: string } | undefined {
  const raw = (file.indexingError ?? file.error ?? file.errorMessage) as unknown;
  if (!raw) return undefined;
  if (typeof raw === 'string') return { message: raw };
  if (typeof raw === 'object') {
    const r = raw as { code?: unknown; message?: unknown };
    return {
      code: typeof r.code === 'string' ? r.code : undefined,
      message: typeof r.message === 'string' ? r.message : JSON.stringify(raw),
    };
  }
  return { message: String(raw) };
}

/** "12 pages recognised, mean confidence 91; 88 skipped: page 13 on: the time limit (5 min per document)" */
export function ocrSummary(raw: unknown): string | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const { pages, meanConfidence, skippedPages, skipped } = raw as Record<string, unknown>;
  if (typeof pages !== 'number') return undefined;
  let text = `${pages} page${pages === 1 ? '' : 's'} recognised, mean confidence ${String(meanConfidence)}`;
  if (typeof skippedPages === 'number') text += `; ${skippedPages} skipped`;
  if (typeof skipped === 'string') text += `: ${skipped}`;
  return text;
}

/** A field such as `indexedAt` holding an ISO 8601 time: shown as the record's creation is. */
function isTime(key: string, value: unknown): value is string {
  return /At$/.test(key) && typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value);
}

function label(key: string): string {
  const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export default function getCommand(run = runGet): Command {
  return new Command('get')
    .aliases(['view', 'show'])
    .description("show a file's detail and indexing status")
    .argument('<file>', "file id, or the file's name when no file has it as id")
    .addHelpText(
      'after',
      '\nExit status 0 even when the file FAILED indexing: the read worked.\n\nExamples:\n  $ kb files get file_123\n  $ kb files get handbook.pdf\n  $ kb files get file_123 --json | jq .indexingError',
    )
    .action((id: string, _opts: unknown, cmd: Command) => run(Context.for(cmd), id));
}

export async function runGet(ctx: Context, id: string): Promise<void> {
  const { io } = ctx;
  const client = await ctx.client();
  const file = await fileByIdOrName(client, id, ctx.signal);
  const error = indexingError(file);
  const fields: Field[] = [
    ['ID', file.id],
    ['Name', file.originalFilename],
    ['Size', io.stdoutIsTTY ? `${humanSize(file.fileSize)} (${file.fileSize} bytes)` : file.fileSize],
    ['Type', file.mimeType],
    ['Status', file.indexingStatus, (s) => colorStatus(io.color, s)],
    ['Created', ctx.output.time(file.createdAt)],
    ...Object.entries(file)
      .filter(([key, value]) => !SHOWN.has(key) && value !== null && typeof value !== 'object')
      .map(([key, value]): Field => [label(key), isTime(key, value) ? ctx.output.time(value) : value]),
  ];
  const ocr = ocrSummary(file.ocr);
  if (ocr) fields.push(['OCR', ocr]);
  if (error)
    fields.push([
      'Error',
      `${error.code ? `${error.code}: ` : ''}${error.message}`,
      (s) => io.color.red.bold(s),
    ]);
  ctx.output.record(file, fields);
}
