import { describe, expect, it } from 'vitest';
import { answerOf, doc, libraryOf } from '../helpers/library.js';

// The twenty-seventh new user's trial (V05): svnserve.conf(5) as a PDF defines each setting under
// a line of its syntax, `name = a|b|c`; the line was read as an example's assignment, so both
// settings' defaults came without their names ("The default level is read. The default level is
// write.").
const SVNSERVE_CONF = [
  'DESCRIPTION',
  'svnserve.conf controls the behavior of the svnserve daemon on a per-repository basis. It is located in the conf subdirectory of the repository.',
  'anon-access = none|read|write',
  'Determines the access level for unauthenticated users. write access allows all repository operations. read access allows all operations except committing and changing revision properties. none access allows no access. The default level is read.',
  'auth-access = none|read|write',
  'Determines the access level for authenticated users, using the same access levels as above. The default level is write.',
  'password-db = filename',
  'Sets the location of the password database. filename may be relative to the repository conf directory. There is no default value.',
].join('\n');

describe("a line of a setting's syntax, its values one of a few", () => {
  it('names the setting its definition is of', async () => {
    const library = libraryOf([doc('subversion/svnserve.conf.5.pdf', SVNSERVE_CONF)]);
    const anon = await answerOf(library, 'What is the default anon-access level in svnserve.conf?');
    expect(anon).toMatch(/^anon-access = none\|read\|write: .*The default level is read\./);
    expect(anon).not.toContain('write.');
    const auth = await answerOf(library, 'What is the default auth-access level?');
    expect(auth).toMatch(/^auth-access = none\|read\|write: .*The default level is write\./);
  });
});
