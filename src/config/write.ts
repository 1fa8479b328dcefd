import { chmodSync, mkdirSync } from 'node:fs';
import { CliError, ExitCode } from '../errors.js';
import { importPackage } from '../import-package.js';
import type { ConfigData } from './schema.js';

/** Applies a change to the config file atomically through `conf` (loaded only here). */
export async function updateConfig(dir: string, change: (data: ConfigData) => void): Promise<ConfigData> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dir, 0o700);
  } catch {
    // a directory we do not own (e.g. a shared XDG dir) keeps its mode
  }
  const { default: Conf } = await importPackage<typeof import('conf')>('conf');
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
    throw new CliError(`config file in ${dir} cannot be loaded: ${(err as Error).message}`, ExitCode.failure);
  }
  const data: ConfigData = {
    currentProfile: store.get('currentProfile'),
    profiles: store.get('profiles') ?? {},
    settings: store.get('settings') ?? {},
  };
  change(data);
  const next: Record<string, unknown> = { profiles: data.profiles, settings: data.settings };
  if (data.currentProfile !== undefined) next.currentProfile = data.currentProfile;
  store.store = next as unknown as ConfigData;
  chmodSync(store.path, 0o600);
  return data;
}
