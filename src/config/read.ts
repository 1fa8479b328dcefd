import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, ExitCode } from '../errors.js';
import { CONFIG_FILE } from './paths.js';
import { refuseLink } from './links.js';
import { bare } from './names.js';
import type { ConfigData, Profile } from './schema.js';

export interface ReadResult {
  data: ConfigData;
  path: string;
  /** Set when the file can be read by group or others. */
  permissionWarning?: string;
}

/**
 * Reads the config without loading `conf` (which pulls in ajv): reading happens on every
 * command, writing only in a few.
 */
export function readConfig(dir: string): ReadResult {
  const path = join(dir, CONFIG_FILE);
  refuseLink(dir, 'config directory');
  refuseLink(path, 'config file');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { data: { profiles: bare({}), settings: bare({}) }, path };
    throw new CliError(`cannot read config file ${path}: ${(err as Error).message}`, ExitCode.failure);
  }
  let parsed: unknown;
  try {
    parsed = text.trim() ? JSON.parse(text) : {};
  } catch (err) {
    throw new CliError(
      `config file ${path} is not valid JSON (${(err as Error).message})`,
      ExitCode.failure,
      'fix it by hand or remove it and run `kb auth login` again',
    );
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new CliError(`config file ${path} must hold a JSON object`, ExitCode.failure);
  }
  const raw = parsed as Partial<ConfigData>;
  if (
    raw.profiles !== undefined &&
    (typeof raw.profiles !== 'object' || raw.profiles === null || Array.isArray(raw.profiles))
  ) {
    throw new CliError(`config file ${path}: "profiles" must be an object`, ExitCode.failure);
  }
  // Without prototypes: a profile, setting or webhook named `constructor` finds nothing.
  const profiles = bare<ConfigData['profiles']>(raw.profiles);
  for (const [name, profile] of Object.entries(profiles)) {
    const p = bare<Profile>(profile);
    if (p.webhookSecrets) p.webhookSecrets = bare<Record<string, string>>(p.webhookSecrets);
    profiles[name] = p;
  }
  const data: ConfigData = {
    currentProfile: typeof raw.currentProfile === 'string' ? raw.currentProfile : undefined,
    profiles,
    settings: bare(raw.settings),
  };
  let permissionWarning: string | undefined;
  try {
    const mode = statSync(path).mode & 0o777;
    if (mode & 0o077) {
      permissionWarning = `config file ${path} is readable by others (mode ${mode.toString(8)}); run: chmod 600 ${path}`;
    }
  } catch {
    // stat failing right after a successful read is not worth an error
  }
  return { data, path, permissionWarning };
}
