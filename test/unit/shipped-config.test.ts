import { describe, expect, it } from 'vitest';
import { questionWords } from '../../src/server/answer/relevance.js';

// New users' trials (34, 35) asked of "the shipped jail.conf", "Apache's shipped mod_reqtimeout
// configuration", "the shipped ufw defaults file": "shipped" says which file, as it comes with its
// package, in a word its text does not say. It weighed most (4.6-5.0), and 'What value does the
// shipped config use?' after a question on Apache's MaxSpareThreads was answered from mosquitto's
// README.Debian ("…the shipped enforcing profile works with the default installation…").
describe('"shipped" before what it qualifies', () => {
  it('is no word of the question', () => {
    expect(questionWords('What value does the shipped config use?')).not.toContain('shipped');
    expect(questionWords("How long is an IP banned for in fail2ban's shipped jail.conf?")).not.toContain(
      'shipped',
    );
    expect(questionWords('Is bantime = 10m as shipped?')).not.toContain('shipped');
    // What was shipped, asked about, is.
    expect(questionWords('When was the order shipped?')).toContain('shipped');
  });
});
