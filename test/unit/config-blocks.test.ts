import { describe, expect, it } from 'vitest';
import { configBlocks } from '../../src/server/answer/config-blocks.js';

describe('configBlocks', () => {
  it("names a setting's section and stanza, with the lines that open and close them", () => {
    const lines = [
      '[defaults]', // 0
      '\tblocksize = 4096', // 1
      '', // 2
      '[fs_types]', // 3
      '\tsmall = {', // 4
      '\t\tinode_ratio = 4096', // 5
      '\t}', // 6
      '\tbig = {', // 7
      '\t\tinode_ratio = 32768', // 8
      '\t}', // 9
    ];
    const blocks = configBlocks(lines);
    expect(blocks[1]).toEqual({ name: 'defaults', lines: [0], stanza: false });
    expect(blocks[5]).toEqual({ name: 'fs_types small', lines: [3, 4, 6], stanza: true });
    expect(blocks[8]).toEqual({ name: 'fs_types big', lines: [3, 7, 9], stanza: true });
    for (const line of [0, 2, 3, 4, 6]) expect(blocks[line]).toBeUndefined();
  });

  it('reads nested stanzas and XML-like sections, and ignores what is commented out', () => {
    const lines = [
      'http {', // 0
      '  server {', // 1
      '    # location /old {', // 2
      '    listen 80;', // 3
      '  }', // 4
      '  gzip on;', // 5
      '}', // 6
      '<Directory /var/www>', // 7
      '  Options Indexes', // 8
      '</Directory>', // 9
      'ServerName example.org', // 10
    ];
    const blocks = configBlocks(lines);
    expect(blocks[3]).toEqual({ name: 'http server', lines: [0, 1, 6, 4], stanza: true });
    expect(blocks[5]).toEqual({ name: 'http', lines: [0, 6], stanza: true });
    expect(blocks[8]).toEqual({ name: 'Directory /var/www', lines: [7, 9], stanza: true });
    expect(blocks[10]).toBeUndefined();
  });

  it('keeps a stanza that is never closed open to the end, and a stray closer closes nothing', () => {
    const blocks = configBlocks(['}', 'a = {', 'b = 1']);
    expect(blocks[2]).toEqual({ name: 'a', lines: [1], stanza: true });
  });
});
