import { describe, expect, it } from 'vitest';
import { docLines, followUpOf, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 38 (#33): after "How do I forward logs to a remote server over TCP?" (answered
// from rsyslog.conf(5)), "And if I want UDP instead?" was answered with mtr(8)'s `--udp`, "Use UDP
// datagrams instead of ICMP ECHO.": "instead" weighed as what the question is about, and only mtr
// said it. Both man pages as kb serve reads them (80 columns, unwrapped).
const RSYSLOG = docLines('rsyslog.conf.5.txt', 7, [
  'Remote machine',
  'There are three ways to forward message: the traditional UDP transport, which is extremely lossy but standard, the plain TCP based transport which loses messages only during certain situations but is widely available and the RELP transport which does not lose messages but is currently available only as part of rsyslogd 3.15.0 and above.',
  'To forward messages to another host via UDP, prepend the hostname with the at sign ("@"). To forward it via plain tcp, prepend two at signs ("@@"). To forward via RELP, prepend the string ":omrelp:" in front of the hostname.',
]);
const MTR = docLines('mtr.8.txt', 4, [
  '-u, --udp',
  'Use UDP datagrams instead of ICMP ECHO.',
  '-T, --tcp',
  'Use TCP SYN packets instead of ICMP ECHO. PACKETSIZE is ignored, since SYN packets can not contain data.',
]);
const WEIGHTS = weightsOf({
  udp: 2.4,
  tcp: 2,
  forward: 2,
  remote: 2.2,
  logs: 1.8,
  server: 1,
  instead: 1.5,
  want: 1.4,
});

describe('a follow-up that asks for one thing instead of another', () => {
  it('goes on about what the question before asked of', async () => {
    const { first, next } = await followUpOf(
      libraryOf([MTR, RSYSLOG], WEIGHTS),
      'How do I forward logs to a remote server over TCP?',
      'And if I want UDP instead?',
    );
    expect(first.sources).toEqual(['rsyslog.conf.5.txt']);
    expect(next.content).toContain('To forward messages to another host via UDP, prepend the hostname');
    expect(next.sources).toEqual(['rsyslog.conf.5.txt']);
  });

  it('has a subject of its own when it names a program', async () => {
    const { next } = await followUpOf(
      libraryOf([MTR, RSYSLOG], WEIGHTS),
      'How do I forward logs to a remote server over TCP?',
      'And how do I make mtr use UDP instead?',
    );
    expect(next.content).toContain('Use UDP datagrams instead of ICMP ECHO.');
  });
});
