import { describe, expect, it } from 'vitest';
import { asSentence } from '../../src/server/answer/passages.js';

describe("a passage as an answer's sentence", () => {
  it('ends with a full stop, once', () => {
    expect(asSentence('Provide customizations in a jail.local file')).toBe(
      'Provide customizations in a jail.local file.',
    );
    expect(asSentence('It is the default.')).toBe('It is the default.');
    expect(asSentence('To sign a zone, add the following:')).toBe('To sign a zone, add the following.');
    // fail2ban's jail.conf (a new user's trial 39): "…under jail.d/ directory, e.g.:" had been said
    // "…directory, e.g..".
    expect(asSentence('or separate .conf files under jail.d/ directory, e.g.:')).toBe(
      'or separate .conf files under jail.d/ directory, e.g.',
    );
  });
});
