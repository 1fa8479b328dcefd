import { extname } from 'node:path';
import type { IndexingError } from './model.js';

export const MIME_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.json': 'application/json',
  '.csv': 'text/csv',
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.zip': 'application/zip',
};

export function mimeTypeFor(filename: string): string {
  return MIME_TYPES[extname(filename).toLowerCase()] ?? 'application/octet-stream';
}

export type Extraction = { ok: true; text: string } | { ok: false; error: IndexingError };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<\/(p|div|h[1-6]|li|tr|section|article|br)>|<br\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(#\d+|#x[0-9a-f]+|\w+);/gi, (m, e: string) => {
      if (e[0] === '#')
        return String.fromCodePoint(
          e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)),
        );
      return ENTITIES[e.toLowerCase()] ?? m;
    });
}

function jsonToText(value: unknown, path = ''): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value !== 'object') return [`${path ? `${path}: ` : ''}${String(value)}`];
  if (Array.isArray(value)) return value.flatMap((v) => jsonToText(v, path));
  return Object.entries(value).flatMap(([k, v]) => jsonToText(v, k));
}

function csvToText(csv: string): string {
  const [header, ...rows] = csv.split(/\r?\n/).filter((l) => l.trim());
  if (!header) return '';
  const names = header.split(',').map((h) => h.trim());
  return rows
    .map(
      (row) =>
        row
          .split(',')
          .map((cell, i) => `${names[i] ?? `column ${i + 1}`}: ${cell.trim()}`)
          .join('; ') + '.',
    )
    .join('\n');
}

/** Text of a document, or the indexing error that explains why there is none. */
export function extractText(filename: string, bytes: Buffer): Extraction {
  if (bytes.length === 0) return { ok: false, error: { code: 'empty_file', message: 'the file is empty' } };
  const ext = extname(filename).toLowerCase();
  const fail = (code: string, message: string): Extraction => ({ ok: false, error: { code, message } });
  if (!['.txt', '.md', '.markdown', '.html', '.htm', '.json', '.csv'].includes(ext)) {
    return fail(
      'unsupported_type',
      `files of type ${ext || '(no extension)'} cannot be indexed; supported: .txt .md .html .json .csv`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return fail('invalid_encoding', 'the file is not valid UTF-8 text');
  }
  if (text.includes('\u0000')) return fail('binary_content', 'the file holds binary data, not text');
  if (ext === '.html' || ext === '.htm') text = htmlToText(text);
  else if (ext === '.json') {
    try {
      text = jsonToText(JSON.parse(text)).join('\n');
    } catch (err) {
      return fail('parse_error', `the JSON cannot be parsed: ${(err as Error).message}`);
    }
  } else if (ext === '.csv') text = csvToText(text);
  else if (ext === '.md' || ext === '.markdown')
    text = text.replace(/^#+\s*/gm, '').replace(/[*_`]{1,3}/g, '');
  text = text
    .replace(/\t|[ \t]{2,}/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (!text) return fail('no_text', 'no text could be extracted from the file');
  return { ok: true, text };
}

/**
 * Splits text into chunks of about `size` characters along paragraph and sentence
 * boundaries, each starting with the last `overlap` characters of the one before.
 */
export function chunkText(text: string, size = 800, overlap = 120): string[] {
  const sentences = text
    .split(/(?<=[.!?])[ \t]+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const chunks: string[] = [];
  let current = '';
  for (const sentence of sentences) {
    if (current && current.length + sentence.length + 1 > size) {
      chunks.push(current);
      const tail = current.slice(-overlap);
      const cut = tail.search(/\s/);
      current = cut >= 0 ? tail.slice(cut + 1) : '';
    }
    if (sentence.length > size) {
      for (let i = 0; i < sentence.length; i += size - overlap) {
        if (current) chunks.push(current);
        current = sentence.slice(i, i + size);
      }
      continue;
    }
    current = current ? `${current}\n${sentence}` : sentence;
  }
  if (current) chunks.push(current);
  return chunks;
}
