import type { ColorSetting } from '../io/color.js';

export interface Profile {
  baseUrl?: string;
  apiKey?: string;
  /** Webhook signing secrets saved with `kb webhooks create --save-secret`, by webhook id. */
  webhookSecrets?: Record<string, string>;
}

export interface Settings {
  format?: 'table' | 'json' | 'jsonl';
  color?: ColorSetting;
  timeout?: string;
  retries?: number;
}

export interface ConfigData {
  currentProfile?: string;
  profiles: Record<string, Profile>;
  settings: Settings;
}

export const DEFAULT_PROFILE = 'default';
