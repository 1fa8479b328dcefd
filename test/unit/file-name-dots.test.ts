import { describe, expect, it } from 'vitest';
import { nameStems } from '../../src/server/answer/ground.js';
import { stem } from '../../src/server/answer/relevance.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// A new user's trial 28 (K02): MIT Kerberos' HTML manual, as Sphinx names its pages, has kdc.conf's
// page as kdc_conf.html. "What is the default value of max_life in kdc.conf?" missed the name
// `kdc.conf` in that page's every passage, and its answer fell under the bar: refused.
const KDC_CONF = doc(
  'kerberos/kdc_conf.html',
  [
    'max_life',
    '(Time duration string.) Specifies the maximum time period for which a ticket may be valid in this realm. The default value is 24 hours.',
    'max_renewable_life',
    '(Time duration string.) Specifies the maximum time period during which a valid ticket may be renewed in this realm. The default value is 0.',
  ].join('\n'),
);

describe("a file's name written with underscores for its dots (Sphinx: kdc_conf.html)", () => {
  it('is the dotted name it stands for', () => {
    expect(nameStems('kerberos/kdc_conf.html')).toContain(stem('kdc.conf'));
    expect(nameStems('krb5_conf.html')).toContain(stem('krb5.conf'));
  });

  it("answers a question that names the dotted name from that file's passages", async () => {
    const answer = await answerOf(
      libraryOf([KDC_CONF], { [stem('max_life')]: 5, [stem('kdc.conf')]: 6 }),
      'What is the default value of max_life in kdc.conf?',
    );
    expect(answer).toContain('The default value is 24 hours.');
    expect(answer).not.toContain('The default value is 0.');
  });
});

// A new user's trial 39 (K3): fail2ban's jail.conf saved as fail2ban-jail.conf. "What is the
// default bantime in fail2ban jail.conf?" found no `jail.conf` in its passages, and was refused.
const JAIL_CONF = doc(
  'fail2ban-jail.conf',
  [
    '[DEFAULT]',
    '# "bantime" is the number of seconds that a host is banned.',
    'bantime  = 10m',
    '# A host is banned if it has generated "maxretry" during the last "findtime"',
    '# seconds.',
    'findtime  = 10m',
  ].join('\n'),
);

describe("a file's name after a prefix (fail2ban-jail.conf)", () => {
  it('is the name after the prefix too', () => {
    expect(nameStems('fail2ban-jail.conf')).toContain(stem('jail.conf'));
    expect(nameStems('docs/man-chrony.conf.5.pdf')).toContain(stem('chrony.conf'));
  });

  it('answers a question that names it from that file', async () => {
    const answer = await answerOf(
      libraryOf([JAIL_CONF], { [stem('bantime')]: 5, [stem('jail.conf')]: 6, [stem('fail2ban')]: 4 }),
      'What is the default bantime in fail2ban jail.conf?',
    );
    expect(answer).toContain('bantime  = 10m');
  });
});
