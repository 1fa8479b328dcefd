import { describe, expect, it } from 'vitest';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twenty-third new user's trial (K2): Kea's manual lists its parameters as items, each
// "name - what it does. … the default value is N." on one line.
const PARAMETERS = doc(
  'kea/lease-expiration.html',
  [
    '11.2. Lease Reclamation Configuration Parameters',
    'The following list presents all the configuration parameters pertaining to processing expired leases, with their default values:',
    'reclaim-timer-wait-time - this parameter governs intervals between the completion of the previous reclamation cycle and the start of the next one. Specified in seconds; the default value is 10.',
    'flush-reclaimed-timer-wait-time - this parameter controls how often the server initiates the lease reclamation procedure. Expressed in seconds; the default value is 25.',
    'max-reclaim-leases - this parameter specifies the maximum number of reclaimed leases that can be processed at one time. Zero means unlimited (i.e. process all reclaimed leases). The default value is 100.',
    'max-reclaim-time - this parameter specifies an upper limit to the length of time a lease reclamation procedure can take. Zero means no time limit. Expressed in milliseconds; the default value is 250.',
  ].join('\n'),
);

describe("a list item's later sentence that states a default", () => {
  it('is the default of what the item names, and is shown with that name', async () => {
    const library = libraryOf([PARAMETERS], {
      kea: 1.3,
      max: 2.7,
      [stem('reclaim')]: 3.8,
      [stem('time')]: 0.7,
      [stem('default')]: 1.2,
    });
    const reply = await answerOf(library, 'Kea max-reclaim-time default value');
    expect(reply).toMatch(/^max-reclaim-time: [^\n]*the default value is 250\./);
    expect(reply).not.toContain('is 100');
  });
});
