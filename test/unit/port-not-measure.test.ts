import { describe, expect, it } from 'vitest';
import { holdsAnswerType } from '../../src/server/answer/answer-type.js';

// A new user's trial (34): 'In the example system-wide msmtp configuration, which port is used and
// how is TLS set up?' was answered with msmtp(1)'s tls_min_dh_prime_bits ("Only lower the default
// (for example to 512 bits)…"): 512 held the port asked for, and the example file's "Use TLS on
// port 465." ranked under it.
describe('a port', () => {
  const question = 'Which port is used and how is TLS set up?';

  it('is a whole number, not a measure', () => {
    expect(holdsAnswerType(question, 'Only lower the default (for example to 512 bits).')).toBe(false);
    expect(holdsAnswerType(question, 'It waits 30 seconds, then 10 MB are sent.')).toBe(false);
    expect(holdsAnswerType(question, 'Use TLS on port 465.')).toBe(true);
    expect(holdsAnswerType(question, 'listen 127.0.0.1:8118')).toBe(true);
  });

  // A new user's trial 38: "What is the default port of iperf3?" was answered with "If the iperf3
  // server is running on a non-default TCP port…", its default set aside.
  it("is a number of its own, not the figure of a program's name", () => {
    const asked = 'Which port does iperf3 listen on?';
    expect(holdsAnswerType(asked, 'If the iperf3 server is running on another TCP port')).toBe(false);
    expect(holdsAnswerType(asked, 'By default, the iperf3 server listens on TCP port 5201.')).toBe(true);
    expect(holdsAnswerType(asked, 'Listen on 5201/tcp.')).toBe(true);
  });

  it('is not said by a non-default one', () => {
    const asked = 'What is the default port of iperf3?';
    expect(
      holdsAnswerType(
        asked,
        'If the iperf3 server is running on a non-default TCP port, that port number needs to be specified',
      ),
    ).toBe(false);
    expect(holdsAnswerType(asked, 'By default, the iperf3 server listens on TCP port 5201.')).toBe(true);
  });
});

// A new user's trial 39: "What is the default port unbound listens on for DNS queries?" was
// answered with interface-automatic-ports' "If empty, the default port is listened on.", which
// states that there is a default port, not which: asked after three words, a port was not asked.
describe('the default port', () => {
  it('is a number, not that there is one', () => {
    const asked = 'What is the default port unbound listens on for DNS queries?';
    expect(holdsAnswerType(asked, 'If empty, the default port is listened on.')).toBe(false);
    expect(
      holdsAnswerType(asked, 'The port number, default 53, on which the server responds to queries.'),
    ).toBe(true);
  });
});

// A new user's trial 39: "On which port does the first PostgreSQL cluster run on Debian?" was
// answered with "Since the on-disk data format of all major PostgreSQL versions (like 9.6, 11,
// etc.) is incompatible…": its 11 was taken for a port.
describe('a number said as a port', () => {
  const asked = 'On which port does the first PostgreSQL cluster run on Debian?';

  it('is near the word, listened on, after a colon or with its protocol', () => {
    expect(holdsAnswerType(asked, 'The first cluster will run on the default port 5432.')).toBe(true);
    expect(holdsAnswerType(asked, 'Port 5433 is the next one.')).toBe(true);
    expect(holdsAnswerType(asked, 'listen 127.0.0.1:8118')).toBe(true);
    expect(holdsAnswerType(asked, 'Open 5432/tcp in the firewall.')).toBe(true);
  });

  it('is not any number of the sentence', () => {
    expect(
      holdsAnswerType(
        asked,
        "Since the on-disk data format of all major PostgreSQL versions (like 9.6, 11, etc.) is incompatible to each other, Debian's PostgreSQL packaging architecture is designed to maintain clusters of different major versions in parallel.",
      ),
    ).toBe(false);
  });
});

// A new user's trial 38 again: once "What is the default port of iperf3?" asked for a port, it was
// answered with "If the iperf3 server is running on a non-default TCP port, that port number needs
// to be specified…" under `iperf3 -c 2001:db8::1`, whose `::1` was taken for a port.
describe("the default port's question", () => {
  const asked = 'What is the default port of iperf3?';

  it('asks for the default, not only a port', () => {
    expect(holdsAnswerType(asked, 'set server port to listen on/connect to to n (default 5201)')).toBe(true);
    expect(holdsAnswerType(asked, 'Connect to port 5002 with -p 5002.')).toBe(false);
  });

  it("takes no part of an IPv6 address for a port, and an address's port for one", () => {
    expect(holdsAnswerType('Which port does the client use?', 'iperf3 -c 2001:db8::1')).toBe(false);
    expect(holdsAnswerType('Which port does the client use?', 'connect to [::1]:5201')).toBe(true);
    expect(holdsAnswerType('Which port does the client use?', 'connect to localhost:5201')).toBe(true);
  });
});

// gnuplot's manual refers to its pages ("See plot smooth (p. 112)"), whole in one sentence once an
// abbreviation before a number ends none (bench:real's gnu-id-7): a page is no number asked for.
describe('a reference to a page', () => {
  it('is no figure', () => {
    const asked = 'What is the default number of points for set samples?';
    expect(holdsAnswerType(asked, 'See plot smooth (p. 112) and set cntrparam (pp. 138–139).')).toBe(false);
    expect(holdsAnswerType(asked, 'By default, sampling is set to 100 points (see p. 112).')).toBe(true);
  });
});
