import { describe, expect, it } from 'vitest';
import { unwrapText } from '../../src/server/ingest/extraction/plain-text.js';

// A new user's trial 42 (K09): nfsmount.conf(5) saved as text (`man -l … | col -b`) ends with its
// running foot, "16 December 2020   NFSMOUNT.CONF(5)", which was read as a sentence of its last
// section and shown in an answer ("16: December 2020 NFSMOUNT.CONF(5).").
const PAGE = [
  'NFSMOUNT.CONF(5)\t      File Formats Manual\t      NFSMOUNT.CONF(5)',
  '',
  'NAME',
  '       nfsmount.conf - Configuration file for NFS mounts',
  '',
  'SEE ALSO',
  '       nfs(5), mount(8),',
  '',
  '\t\t\t       16 December 2020\t\t      NFSMOUNT.CONF(5)',
].join('\n');

describe("a man page's running head and foot", () => {
  it('are no text of the page', () => {
    const text = unwrapText(PAGE);
    expect(text).not.toContain('File Formats Manual');
    expect(text).not.toContain('December 2020');
    expect(text).toContain('nfsmount.conf - Configuration file for NFS mounts');
    expect(text).toContain('nfs(5), mount(8),');
  });

  it('a foot that is the name alone goes too; a text without the head keeps its lines', () => {
    const earlyoom = [
      'earlyoom(1)   General Commands Manual   earlyoom(1)',
      'NAME',
      '  earlyoom - the Early OOM Daemon',
      'DESCRIPTION',
      '  The oom-killer generally has a bad reputation among Linux users.',
      '',
      '\t\t\t\t\t\t\t\t   earlyoom(1)',
    ];
    expect(unwrapText(earlyoom.join('\n'))).not.toContain('earlyoom(1)');
    const notes = ['Notes', 'See the page for details:', '        nfs(5)', 'and more.'].join('\n');
    expect(unwrapText(notes)).toContain('nfs(5)');
  });
});
