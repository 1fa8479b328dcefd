import type { Settings } from '../../config/schema.js';
import { UsageError } from '../../errors.js';
import { parseDuration } from '../../util/duration.js';

interface SettingKey {
  description: string;
  values?: string[];
  parse(value: string): Settings[keyof Settings];
}

function oneOf(key: string, values: string[]) {
  return (value: string) => {
    if (!values.includes(value))
      throw new UsageError(`invalid ${key} "${value}": expected one of ${values.join(', ')}`);
    return value as never;
  };
}

/** The non-secret settings `kb config` manages. */
export const SETTINGS: Record<keyof Settings, SettingKey> = {
  format: {
    description: 'default output format',
    values: ['table', 'json', 'jsonl'],
    parse: oneOf('format', ['table', 'json', 'jsonl']),
  },
  color: {
    description: 'colour on terminals',
    values: ['auto', 'always', 'never'],
    parse: oneOf('color', ['auto', 'always', 'never']),
  },
  timeout: {
    description: 'request timeout (e.g. 30s, 5m)',
    parse: (value) => {
      if (parseDuration(value) === undefined)
        throw new UsageError(`invalid timeout "${value}"`, 'use e.g. 30s, 500ms, 5m');
      return value;
    },
  },
  retries: {
    description: 'retries for failed requests (0-10)',
    parse: (value) => {
      const n = Number(value);
      if (!/^\d+$/.test(value) || n > 10) throw new UsageError(`invalid retries "${value}": expected 0-10`);
      return n;
    },
  },
};

export function settingKey(name: string): keyof Settings {
  if (!Object.hasOwn(SETTINGS, name)) {
    throw new UsageError(`unknown setting "${name}"`, `settings: ${Object.keys(SETTINGS).join(', ')}`);
  }
  return name as keyof Settings;
}
