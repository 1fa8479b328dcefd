import { describe, expect, it } from 'vitest';
import { extractiveAnswer, retrieve } from '../../src/server/answer/assistant.js';
import { doc, libraryOf } from '../helpers/library.js';

// A new user's trial (#33): "How do I change the tmux prefix key to C-a?" was answered
// "set -g prefix C-a. bind C-a send-prefix." — lines of a configuration made sentences, a full
// stop in each value, the line between them left out: pasted into tmux.conf, it breaks.
const TMUX = [
  '# Keep windows around after they exit',
  'set -g remain-on-exit on',
  '',
  '# Change the prefix key to C-a',
  'set -g prefix C-a',
  'unbind C-b',
  'bind C-a send-prefix',
  '',
  '# Turn the mouse on, but without copy mode dragging',
  'set -g mouse on',
].join('\n');

describe('lines of a configuration in an answer', () => {
  it('are shown as they are written, as a block of code, the lines between them too', async () => {
    const r = await retrieve(
      libraryOf([doc('example_tmux.conf', TMUX)]),
      'ws',
      'How do I change the tmux prefix key to C-a?',
      [],
    );
    const { content } = extractiveAnswer(r);
    expect(content).toContain('```\nset -g prefix C-a\nunbind C-b\nbind C-a send-prefix\n```');
    expect(content).not.toMatch(/C-a\.|send-prefix\./);
    expect(content).toMatch(/\n\nSources: \[example_tmux\.conf\]$/);
  });
});
