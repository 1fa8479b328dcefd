import { describe, expect, it } from 'vitest';
import { unwrapText } from '../../src/server/ingest/extraction/plain-text.js';

// The twenty-seventh new user's trial (K12): tzdata's zone1970.tab, columns separated by tabs. A
// row whose first cell is longer than a tab stop (`CI,BF,GH,…`) is not aligned with its
// neighbours, so it and the row above it were read as wrapped prose, one line: "CH,DE,LI
// +4723+00832 Europe/Zurich Büsingen CI,BF,GH,… Africa/Abidjan".
const ZONES = [
  '# TZ zone descriptions, with a row for each zone.',
  '#',
  '# This file is in the public domain.',
  '#',
  '#country-',
  '#codes\tcoordinates\tTZ\tcomments',
  'CA\t+6043-13503\tAmerica/Whitehorse\tMST - Yukon (east)',
  'CA\t+6404-13925\tAmerica/Dawson\tMST - Yukon (west)',
  'CH,DE,LI\t+4723+00832\tEurope/Zurich\tBüsingen',
  'CI,BF,GH,GM,GN,IS,ML,MR,SH,SL,SN,TG\t+0519-00402\tAfrica/Abidjan',
  'CK\t-2114-15946\tPacific/Rarotonga',
  'CL\t-3327-07040\tAmerica/Santiago\tmost of Chile',
].join('\n');

describe('rows of a table whose cells are separated by tabs', () => {
  it('are rows, each on its own line, however wide their cells', () => {
    const lines = unwrapText(ZONES).split('\n');
    // Named by the commented header row, as a CSV's are.
    expect(lines).toContain(
      'codes: CH,DE,LI; coordinates: +4723+00832; TZ: Europe/Zurich; comments: Büsingen.',
    );
    expect(lines).toContain(
      'codes: CI,BF,GH,GM,GN,IS,ML,MR,SH,SL,SN,TG; coordinates: +0519-00402; TZ: Africa/Abidjan.',
    );
  });
});

// A new user's trial 32 (q30): /etc/services, a row of a name and its port, and one with aliases or
// a comment after them. The two-cell rows were read as prose: "rsync 873/tcp" headed the row under
// it, and "Which TCP port is assigned to rsync?" was answered "rsync 873/tcp: ftps-data; 989/tcp;
// # FTP over SSL (data)."
const SERVICES = [
  '# Network services, Internet style',
  'domain-s\t853/tcp\t\t\t\t# DNS over TLS [RFC7858]',
  'domain-s\t853/udp\t\t\t\t# DNS over DTLS [RFC8094]',
  'rsync\t\t873/tcp',
  'ftps-data\t989/tcp\t\t\t\t# FTP over SSL (data)',
  'ftps\t\t990/tcp',
  'telnets\t\t992/tcp\t\t\t\t# Telnet over SSL',
  'imaps\t\t993/tcp\t\t\t\t# IMAP over SSL',
  'pop3s\t\t995/tcp\t\t\t\t# POP-3 over SSL',
  'socks\t\t1080/tcp\t\t\t# socks proxy server',
  'kerberos-master\t751/udp\t\tkerberos_master\t# Kerberos authentication',
  'kerberos-master\t751/tcp',
  'openvpn\t\t1194/tcp',
  'openvpn\t\t1194/udp',
  'rmiregistry\t1099/tcp\t\t\t# Java RMI Registry',
].join('\n');

describe('a row of fewer cells among rows of a table separated by tabs', () => {
  it('is a row of its own, its cells where theirs are', () => {
    const lines = unwrapText(SERVICES).split('\n');
    expect(lines).toContain('rsync; 873/tcp.');
    expect(lines).toContain('ftps-data; 989/tcp; # FTP over SSL (data).');
    expect(lines).toContain('ftps; 990/tcp.');
    // A first cell that ends a column before the tab stop (one space, not two, before the next).
    expect(lines).toContain('kerberos-master; 751/tcp.');
    // Two rows of two cells, beside each other, beside a row of more.
    expect(lines).toContain('openvpn; 1194/tcp.');
    expect(lines).toContain('openvpn; 1194/udp.');
    // And a row of more cells next to those, with none of its own kind within reach.
    expect(lines).toContain('rmiregistry; 1099/tcp; # Java RMI Registry.');
  });

  it('but a line of prose with a tab in it beside them is prose', () => {
    const lines = unwrapText(`${SERVICES}\nSee the manual\tfor the rest of the ports.`).split('\n');
    expect(lines).toContain('See the manual\tfor the rest of the ports.');
  });
});
