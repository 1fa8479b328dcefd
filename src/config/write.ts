import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, ExitCode } from '../errors.js';
import { importPackage } from '../import-package.js';
import { refuseLink } from './links.js';
import { bare } from './names.js';
import { CONFIG_FILE } from './paths.js';
import type { ConfigData } from './schema.js';

/** How long a lock may go without being refreshed before another kb takes it over. */
const STALE_LOCK_MS = 10_000;

/**
 * Applies a change to the config file. Invariant: every read-modify-write holds the config
 * lock (proper-lockfile: a lock directory beside the file, refreshed while held, taken over
 * when stale), and the file is replaced atomically (conf writes a new file and renames it), so
 * parallel writers each see the other's changes and none is lost.
 */
export async function updateConfig(dir: string, change: (data: ConfigData) => void): Promise<ConfigData> {
  const path = join(dir, CONFIG_FILE);
  refuseLink(dir, 'config directory');
  refuseLink(path, 'config file');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dir, 0o700);
  } catch {
    // a directory we do not own (e.g. a shared XDG dir) keeps its mode
  }
  const [{ default: Conf }, lockfile] = await Promise.all([
    importPackage<typeof import('conf')>('conf'),
    importPackage<typeof import('proper-lockfile')>('proper-lockfile'),
  ]);
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(path, {
      realpath: false,
      stale: STALE_LOCK_MS,
      retries: { retries: 200, factor: 1.2, minTimeout: 5, maxTimeout: 100, randomize: true },
    });
  } catch (err) {
    throw new CliError(
      `cannot lock the config file ${path}: ${(err as Error).message}`,
      ExitCode.failure,
      `another kb may be writing it; if none is running, remove ${path}.lock`,
    );
  }
  try {
    let store: InstanceType<typeof Conf<ConfigData>>;
    try {
      store = new Conf<ConfigData>({
        cwd: dir,
        configName: 'config',
        projectSuffix: '',
        configFileMode: 0o600,
        clearInvalidConfig: false,
        accessPropertiesByDotNotation: false,
      });
    } catch (err) {
      throw new CliError(
        `config file in ${dir} cannot be loaded: ${(err as Error).message}`,
        ExitCode.failure,
      );
    }
    const profiles = bare<ConfigData['profiles']>(store.get('profiles'));
    for (const [name, profile] of Object.entries(profiles))
      profiles[name] = {
        ...profile,
        webhookSecrets: profile?.webhookSecrets && bare<Record<string, string>>(profile.webhookSecrets),
      };
    const data: ConfigData = {
      currentProfile: store.get('currentProfile'),
      profiles,
      settings: bare(store.get('settings')),
    };
    change(data);
    const next: Record<string, unknown> = { profiles: data.profiles, settings: data.settings };
    if (data.currentProfile !== undefined) next.currentProfile = data.currentProfile;
    store.store = JSON.parse(JSON.stringify(next)) as ConfigData;
    chmodSync(store.path, 0o600);
    return data;
  } finally {
    await release().catch(() => {});
  }
}
