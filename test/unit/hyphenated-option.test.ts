import { describe, expect, it } from 'vitest';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// unbound.conf(5) as a PDF (a new user's trial 26): "What is the default cache-max-ttl in unbound?"
// was answered with cache-max-ttl's 86400 and then "cache-max-negative-ttl: … Default is 3600.",
// another option whose name holds the same words.
const UNBOUND = docLines('unbound.conf.5.pdf', 0, [
  'cache-max-ttl: <seconds>',
  'Time to live maximum for RRsets and messages in the cache. Default is 86400 seconds (1 day). When the TTL expires, the cache item has expired.',
  'cache-min-ttl: <seconds>',
  'Time to live minimum for RRsets and messages in the cache. Default is 0.',
  'cache-max-negative-ttl: <seconds>',
  'Time to live maximum for negative responses, these have a SOA in the authority section that is limited in time. Default is 3600. This applies to nxdomain and nodata answers.',
]);

describe('an option the question names by a hyphenated name', () => {
  it("is answered from its own definition, not another option's whose name holds its words", async () => {
    const library = libraryOf([UNBOUND], weightsOf({ cache: 2, max: 2, ttl: 3, unbound: 3, default: 1 }));
    const answer = await answerOf(library, 'What is the default cache-max-ttl in unbound?');
    expect(answer).toContain('Default is 86400 seconds');
    expect(answer).not.toContain('3600');
  });
});
