import { describe, expect, it } from 'vitest';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twentieth new user's trial: configuration files whose names say nothing of it (Debian's
// /etc/default/rsync saved as default-rsync, a systemd unit), beside prose about them.
const DEFAULTS = doc(
  'rsync/default-rsync',
  [
    '# defaults file for rsync daemon mode',
    '#',
    '# This file is only used for init.d based systems!',
    '# If this system uses systemd, you can specify options etc. for rsync in daemon mode by copying /lib/systemd/system/rsync.service to /etc/systemd/system/rsync.service and modifying the copy; add required options to the ExecStart line.',
    '# start rsync in daemon mode from init.d script?',
    '# only allowed values are "true", "false", and "inetd" Use "inetd" if you want to start the rsyncd from inetd, all this does is prevent the init.d script from printing a message about not starting rsyncd (you still need to modify inetd\'s config yourself).',
    'RSYNC_ENABLE=false',
    '# which file should be used as the configuration file for rsync.',
  ].join('\n'),
);
/** The next chunk, as kb cut it: the setting under the heading its comment's question made. */
const DEFAULTS_NEXT = doc(
  'rsync/default-rsync',
  [
    '# start rsync in daemon mode from init.d script?',
    'RSYNC_ENABLE=false',
    '# which file should be used as the configuration file for rsync. This file is used instead of the default /etc/rsyncd.conf',
    '# RSYNC_CONFIG_FILE=',
  ].join('\n'),
  1,
);
const README = doc(
  'rsync/README.Debian.txt',
  [
    'rsync for Debian',
    'If you still have an init.d based system, you need to edit /etc/default/rsync by hand to set RSYNC_ENABLE=true so that the init.d script will try to start the daemon.',
  ].join('\n'),
);

describe('a configuration file known by its lines, whatever its name', () => {
  it("reads a setting's comment as what says what the setting takes", async () => {
    const library = libraryOf([README, DEFAULTS, DEFAULTS_NEXT], { [stem('values')]: 1.6, rsync_enable: 5 });
    const reply = await answerOf(
      library,
      'What values can RSYNC_ENABLE be set to in the rsync defaults file?',
    );
    expect(reply).toContain('only allowed values are "true", "false", and "inetd"');
    // Once, though the next chunk has the setting too, alone.
    expect(reply.split('RSYNC_ENABLE=false')).toHaveLength(2);
  });
});

// A new user's trial 33, d03: lynx.cfg writes its settings as a name in capitals, a colon and the
// value, commented out at their defaults.
const LYNX_CFG = doc(
  'web/lynx/lynx.cfg',
  [
    '.h1 Timeouts',
    '',
    '.h2 CONNECT_TIMEOUT',
    '# Specifies (in seconds) connect timeout. Default value is rather huge.',
    '#CONNECT_TIMEOUT:18000',
    '',
    '.h2 READ_TIMEOUT',
    '# Specifies (in seconds) read-timeout. Default value is rather huge.',
    '#READ_TIMEOUT:18000',
    '',
    '.h2 STARTFILE',
    '# See http://lynx.invisible-island.net/ for the home page.',
  ].join('\n'),
);

describe('a setting written NAME:value', () => {
  it('is the value of the comment above it', async () => {
    const library = libraryOf([LYNX_CFG], {
      connect_timeout: 8,
      read_timeout: 8,
      lynx: 4,
      [stem('timeout')]: 3,
    });
    const reply = await answerOf(library, 'What is the default CONNECT_TIMEOUT in lynx.cfg?');
    expect(reply).toContain('#CONNECT_TIMEOUT:18000');
    expect(reply).not.toContain('READ_TIMEOUT');
  });
});
