const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses "500ms", "30s", "10m", "1h" or a bare number of seconds into milliseconds. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(text);
  if (!match) return undefined;
  const value = Number(match[1]) * (UNITS[(match[2] ?? 's').toLowerCase()] ?? 1000);
  return Number.isFinite(value) && value > 0 ? Math.round(value) : undefined;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds ? `${minutes}m${seconds}s` : `${minutes}m`;
}

/** A function returning the milliseconds since the call, on a monotonic clock (the `performance` global loads perf_hooks, ~1 ms of start-up). */
export function stopwatch(): () => number {
  const started = process.hrtime.bigint();
  return () => Number(process.hrtime.bigint() - started) / 1e6;
}
