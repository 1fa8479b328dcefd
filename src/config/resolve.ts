import { UsageError } from '../errors.js';
import { isLoopbackHost } from '../util/loopback.js';
import { checkProfileName } from './names.js';
import { type ConfigData, DEFAULT_PROFILE } from './schema.js';

export type Source = 'flag' | 'env' | 'profile' | 'none';

export interface ResolvedAuth {
  profile: string;
  profileSource: Source;
  baseUrl?: string;
  baseUrlSource: Source;
  apiKey?: string;
  apiKeySource: Source;
}

/** flag > env (KB_API_KEY, KB_BASE_URL, KB_PROFILE) > profile > none. The key has no flag. */
export function resolveAuth(
  flags: { profile?: string; baseUrl?: string },
  env: NodeJS.ProcessEnv,
  config: ConfigData,
): ResolvedAuth {
  const [profile, profileSource]: [string, Source] = flags.profile
    ? [flags.profile, 'flag']
    : env.KB_PROFILE
      ? [env.KB_PROFILE, 'env']
      : [config.currentProfile ?? DEFAULT_PROFILE, config.currentProfile ? 'profile' : 'none'];
  const stored = config.profiles[profile] ?? {};
  const [baseUrl, baseUrlSource]: [string | undefined, Source] = flags.baseUrl
    ? [flags.baseUrl, 'flag']
    : env.KB_BASE_URL
      ? [env.KB_BASE_URL, 'env']
      : stored.baseUrl
        ? [stored.baseUrl, 'profile']
        : [undefined, 'none'];
  const [apiKey, apiKeySource]: [string | undefined, Source] = env.KB_API_KEY
    ? [env.KB_API_KEY, 'env']
    : stored.apiKey
      ? [stored.apiKey, 'profile']
      : [undefined, 'none'];
  checkProfileName(profile);
  return { profile, profileSource, baseUrl, baseUrlSource, apiKey, apiKeySource };
}

/** Validates a base URL; plain http is accepted only on loopback unless `insecure`. */
export function checkBaseUrl(baseUrl: string, insecure = false): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(
      `invalid base URL ${JSON.stringify(baseUrl)}`,
      'expected e.g. https://api.example.com',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`invalid base URL ${JSON.stringify(baseUrl)}: only http and https are supported`);
  }
  if (url.username || url.password) throw new UsageError('the base URL must not contain credentials');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !insecure) {
    throw new UsageError(
      `refusing to send the API key in clear text to ${url.host} over http://`,
      'use https://, or pass --insecure if you really mean it',
    );
  }
  // Every path kb sends starts with /v1 (the interface's version), so a base URL copied with
  // it would ask for /v1/v1/...: the version is dropped from the URL.
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/v1$/i, '');
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}
