import { InvalidIdError } from './errors.js';

/**
 * Puts an id into its own path segment. Every reserved character is percent-encoded, and the
 * dot segments that URL normalisation would collapse are refused, so no id can change the route.
 */
export function segment(id: string): string {
  const trimmed = String(id);
  if (!trimmed || trimmed === '.' || trimmed === '..' || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new InvalidIdError(`invalid id ${JSON.stringify(trimmed)}`, { code: 'invalid_id' });
  }
  return encodeURIComponent(trimmed);
}
