import { readFileSync } from 'node:fs';

/** Replaced with the version by the CLI bundle; read from package.json otherwise. */
declare const __KB_VERSION__: string | undefined;

let cached: string | undefined;

export function version(): string {
  cached ??=
    typeof __KB_VERSION__ === 'string'
      ? __KB_VERSION__
      : (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
          .version;
  return cached;
}

export function userAgent(): string {
  return `kb/${version()} node/${process.versions.node}`;
}
