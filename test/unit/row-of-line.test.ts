import { describe, expect, it } from 'vitest';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twentieth new user's trial (undici's Markdown API reference): a list of options, each item
// "name type (optional) - What it is. Default: value".
const RETRY_OPTIONS = doc(
  'undici/api/RetryHandler.md',
  [
    'RetryOptions',
    'throwOnError boolean (optional) - Disable to prevent throwing error on last retry attept, useful if you need the body on errors from server or if you have custom error handler.',
    'maxRetries number (optional) - Maximum number of retries. Default: 5',
    'maxTimeout number (optional) - Maximum number of milliseconds to wait before retrying. Default: 30000 (30 seconds)',
    'minTimeout number (optional) - Minimum number of milliseconds to wait before retrying. Default: 500 (half a second)',
    'timeoutFactor number (optional) - Factor to multiply the timeout by for each retry attempt. Default: 2',
  ].join('\n'),
);
/** The chunk after it, as kb cut it: from inside minTimeout's line. */
const MORE_OPTIONS = doc(
  'undici/api/RetryHandler.md',
  [
    'RetryOptions',
    'Default: 500 (half a second)',
    'timeoutFactor number (optional) - Factor to multiply the timeout by for each retry attempt. Default: 2',
    'retryAfter boolean (optional) - It enables automatic retry after the Retry-After header is received. Default: true',
    "methods string[] (optional) - Array of HTTP methods to retry. Default: ['GET', 'PUT', 'HEAD', 'OPTIONS', 'DELETE']",
    'statusCodes number[] (optional) - Array of HTTP status codes to retry. Default: [429, 500, 502, 503, 504]',
  ].join('\n'),
  1,
);

describe("a short row after a line's first sentence ('Default: 5')", () => {
  it('is shown with what the line names, and not beside other lines’ rows', async () => {
    const library = libraryOf([MORE_OPTIONS, RETRY_OPTIONS], {
      [stem('retry')]: 3.7,
      [stem('undici')]: 2.7,
      [stem('request')]: 1.25,
    });
    const reply = await answerOf(
      library,
      "How many times does undici's RetryHandler retry a request by default?",
    );
    expect(reply).toMatch(/maxRetries[^\n]*Default: 5/);
    expect(reply).not.toContain('Default: 2');
    expect(reply).not.toContain('Default: 30000');
  });
});
