import { describe, expect, it } from 'vitest';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 39 (#33): "How do I turn on DNSSEC signing for a zone in BIND 9?" was answered
// with the sentence that introduces the example and its first two lines, `options {` and
// `directory "/etc/bind";`: `recursion no;` did not read as code, and the zone's clause with
// `dnssec-policy default;` was left out. BIND's DNSSEC guide as kb serve reads its HTML.
const GUIDE = docLines('bind9-dnssec-guide.html', 12, [
  'Easy-Start Guide for Signing Authoritative Zones',
  'To sign a zone, add the following statement to its zone clause in the BIND 9 configuration file:',
  'options {',
  'directory "/etc/bind";',
  'recursion no;',
  '...',
  '};',
  'zone "example.com" in {',
  '...',
  'dnssec-policy default;',
  'inline-signing yes;',
  '...',
  '};',
  'The dnssec-policy statement causes the zone to be signed and turns on automatic maintenance for the zone.',
]);

describe("an example's block", () => {
  it('goes on to the line that closes it, whatever its lines look like', async () => {
    const answer = await answerOf(
      libraryOf([GUIDE], weightsOf({ dnssec: 3, signing: 2.5, zone: 1.5, bind: 2, turn: 1 })),
      'How do I turn on DNSSEC signing for a zone in BIND 9?',
    );
    expect(answer).toContain('To sign a zone, add the following statement');
    expect(answer).toContain('recursion no;');
    expect(answer).toContain('dnssec-policy default;\ninline-signing yes;');
  });
});

describe('a block its chunk does not close', () => {
  it('ends at the prose after it', async () => {
    const cut = docLines('nginx-example.html', 4, [
      'Load balancing',
      'To spread requests over three servers, define them in an upstream block:',
      'upstream backend {',
      'server backend1.example.com;',
      'The servers are tried in turn, each as often as its weight says, and a failed one is skipped for a while.',
    ]);
    const answer = await answerOf(
      libraryOf([cut], weightsOf({ servers: 2, spread: 2.5, requests: 2 })),
      'How do I spread requests over three servers?',
    );
    expect(answer).toContain('server backend1.example.com;');
    expect(answer).not.toMatch(/```[^`]*The servers are tried in turn/);
  });
});
