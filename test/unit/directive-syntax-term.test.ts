import { describe, expect, it } from 'vitest';
import { FRESHCLAM_CONF_DIRECTIVES } from '../helpers/documents.js';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twenty-seventh new user's trial (F5a): Tor's manual as HTML names each option with the
// syntax of its value (`ControlPort [address:]port|unix:path|auto [flags]`). Dense with brackets,
// the line was skipped as code, so ControlPort's definition had no subject, and "What does Tor's
// ControlPort option do?" was answered with the entry on the `__ControlPort` variants.
const CONTROL_PORT = doc(
  'tor/tor.html',
  [
    'ControlPort [address:]port|unix:path|auto [flags]',
    'If set, Tor will accept connections on this port and allow those connections to control the Tor process using the Tor Control Protocol (described in control-spec.txt in torspec). Note: unless you also specify one or more of HashedControlPassword or CookieAuthentication, setting this option will cause Tor to allow any process on the local host to control it.',
    'ControlPortFileGroupReadable 0|1',
    'If this option is set to 0, don’t allow the filesystem group to read the control port file.',
  ].join('\n'),
);
const VARIANTS = doc(
  'tor/tor.html',
  [
    'NON-PERSISTENT OPTIONS',
    '__ControlPort, __DirPort, __DNSPort, __ExtORPort, __NATDPort, __ORPort, __SocksPort, __TransPort',
    'These underscore-prefixed options are variants of the regular Port options. They behave the same, except they are not saved to the torrc file by the controller’s SAVECONF command.',
  ].join('\n'),
  1,
);

describe("a directive's line with the syntax of its value", () => {
  it('leads its definition, which answers what the directive does', async () => {
    const answer = await answerOf(
      libraryOf([VARIANTS, CONTROL_PORT]),
      "What does Tor's ControlPort option do?",
    );
    expect(answer).toMatch(
      /^ControlPort \[address:\]port\|unix:path\|auto \[flags\]: If set, Tor will accept connections on this port/,
    );
  });
});

// The twenty-ninth new user's trial (a4): freshclam.conf(5) gives each directive's default on a
// line of its own. The next directive's line, right under that attribute, was read as the
// definition the attributes come before (varnishd's `thread_pools` / "Units: pools" / its text),
// so LogTime's "Default: no" was LogFileMaxSize's.
const FRESHCLAM = doc('clamav/freshclam.conf.5.pdf', FRESHCLAM_CONF_DIRECTIVES.join('\n'));

describe("a directive's line under the attributes of the directive before", () => {
  it('leads its own definition and attributes', async () => {
    const library = libraryOf([FRESHCLAM], { logtim: 6, freshclam: 3, default: 1 });
    expect(await answerOf(library, 'What is the default LogTime value in freshclam.conf?')).toMatch(
      /^LogTime BOOL: .*Default: no/s,
    );
  });
});
