import { describe, expect, it } from 'vitest';
import { unwrapText } from '../../src/server/ingest/extraction/plain-text.js';

// The twenty-seventh new user's trial (K05): OpenVPN's management-notes.txt fills most of its
// paragraphs to ~55 characters, and a few of its lines run far longer; against the text's usual
// width (its long lines') the narrow paragraphs' lines were kept as lines, and a passage was a
// fragment ('a "hold release" command.').
const NOTES = [
  'COMMAND -- hold',
  '',
  'The hold command can be used to manipulate the hold flag,',
  'or release OpenVPN from a hold state.',
  '',
  'If the hold flag is set on initial startup or',
  'restart, OpenVPN will hibernate prior to initializing',
  'the tunnel until the management interface receives',
  'a "hold release" command.',
  '',
  'OpenVPN will indicate that it is in a hold state by sending a real-time notification to the management interface client, the parameter indicates how long OpenVPN would wait without UI (as influenced by connect-retry exponential backoff).',
  'The UI needs to wait for releasing the hold if it wants similar behavior: the real-time notification names the seconds it waits, as the example below shows.',
  '',
  'Command examples:',
  '',
  '  hold         -- show current hold flag, 0=off, 1=on.',
  '  hold release -- leave hold state and start OpenVPN.',
  '',
  'COMMAND -- kill',
  '',
  'In server mode, kill a particular client instance.',
].join('\n');

describe('a paragraph filled narrower than the rest of its text', () => {
  it('is read whole, its lines joined', () => {
    const text = unwrapText(NOTES);
    expect(text).toContain(
      'If the hold flag is set on initial startup or restart, OpenVPN will hibernate prior to initializing the tunnel until the management interface receives a "hold release" command.',
    );
    expect(text).toMatch(/^COMMAND -- hold\n/);
    expect(text).toContain('\nCOMMAND -- kill\n');
  });
});
