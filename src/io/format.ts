import type { ChalkInstance } from 'chalk';
import { sanitizeText } from '../util/sanitize.js';

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

export function humanSize(bytes: unknown): string {
  const n = Number(bytes);
  if (!Number.isFinite(n) || n < 0) return '';
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}

export function relativeTime(iso: unknown, now = Date.now()): string {
  const t = Date.parse(String(iso));
  if (Number.isNaN(t)) return String(iso ?? '');
  const seconds = Math.round((now - t) / 1000);
  const abs = Math.abs(seconds);
  // Each unit while its rounded value is under the next unit's: 59m 40s is "1h", not "60m".
  const [value, unit] =
    abs < 45
      ? [0, 'now']
      : Math.round(abs / 60) < 60
        ? [Math.round(abs / 60), 'm']
        : Math.round(abs / 3600) < 24
          ? [Math.round(abs / 3600), 'h']
          : Math.round(abs / 86_400) < 30
            ? [Math.round(abs / 86_400), 'd']
            : [0, 'date'];
  if (unit === 'now') return 'just now';
  if (unit === 'date') return new Date(t).toISOString().slice(0, 10);
  return seconds >= 0 ? `${value}${unit} ago` : `in ${value}${unit}`;
}

const STATUS_COLORS: Record<string, keyof ChalkInstance> = {
  OPEN: 'green',
  CLOSED: 'yellow',
  ARCHIVED: 'gray',
  PENDING: 'yellow',
  PROCESSING: 'cyan',
  COMPLETED: 'green',
  FAILED: 'red',
};

export function colorStatus(color: ChalkInstance, status: string): string {
  const name = STATUS_COLORS[status];
  return name ? (color[name] as (t: string) => string)(status) : status;
}

/** Masks a secret for display: `kb_…1a2b`. */
export function maskSecret(secret: string): string {
  const prefix = /^[a-z]+_/i.exec(secret)?.[0] ?? '';
  return `${prefix}…${secret.length >= 12 ? secret.slice(-4) : ''}`;
}

export function roleLabel(color: ChalkInstance, role: string): string {
  if (role === 'user') return color.bold.cyan('You');
  if (role === 'assistant') return color.bold.magenta('Assistant');
  return color.bold(sanitizeText(role));
}

/**
 * The mark of a reply that did not finish, shown under it wherever a person reads it (the
 * REPL, kb threads get, Markdown); JSON has `incomplete: true` (and `inProgress` while written).
 */
export function unfinishedMark(message: { incomplete?: unknown; inProgress?: unknown }): string | undefined {
  if (message.inProgress === true) return '[reply still being written]';
  if (message.incomplete === true) return '[reply stopped]';
  return undefined;
}
