import { createHash } from 'node:crypto';

/** How an API key is stored: its SHA-256 (hex). The key itself is shown once, when it is made. */
export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The key's last characters, to tell stored keys apart without keeping them. */
export const keyHint = (key: string): string => key.slice(-4);
