import { describe, expect, it } from 'vitest';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 36: ocserv.conf writes a setting's default commented out and, right under it,
// the value it sets (`#max-clients = 1024` / `max-clients = 16`). "What does max-clients do?" was
// answered with the comment and the commented-out line alone: the value the file sets was left out.
const OCSERV_CONF = docLines('vpn/ocserv.conf', 0, [
  '#pre-login-banner = "Welcome"',
  '',
  '# Limit the number of clients. Unset or set to zero if unknown. In',
  '# that case the maximum value is ~8k clients.',
  '#max-clients = 1024',
  'max-clients = 16',
  '',
  '# Limit the number of identical clients (i.e., users connecting',
  '# multiple times). Unset or set to zero for unlimited.',
  'max-same-clients = 2',
]);

describe('a setting right under its default commented out', () => {
  it('is shown with it', async () => {
    const answer = await answerOf(
      libraryOf([OCSERV_CONF], weightsOf({ 'max-clients': 6, max: 2, clients: 2, ocserv: 4, conf: 1 })),
      'What does max-clients do in ocserv.conf?',
    );
    expect(answer).toContain('Limit the number of clients.');
    expect(answer).toContain('#max-clients = 1024');
    expect(answer).toContain('max-clients = 16');
    expect(answer).not.toContain('max-same-clients');
  });
});
