import { describe, expect, it } from 'vitest';
import { answerOf, docLines, libraryOf, weightsOf } from '../helpers/library.js';

// A new user's trial 36 (k02): Caddy's shipped Caddyfile says "# Set this path to your site's
// directory." over `root * /usr/share/caddy`; read as no configuration file (its name has no
// extension), the directive was no setting the comment describes, and "From which directory is
// the site served?" was answered from the package's README.
const CADDYFILE = docLines('proxy/Caddyfile', 0, [
  '# The Caddyfile is an easy way to configure your Caddy web server.',
  '#',
  '# Unless the file starts with a global options block, the first uncommented line is always the address of your site.',
  ':80 {',
  "# Set this path to your site's directory.",
  'root * /usr/share/caddy',
  '# Enable the static file server.',
  'file_server',
  '}',
]);

describe('a configuration file named for what it configures', () => {
  it("is read as one: a comment's setting is the directive under it", async () => {
    const answer = await answerOf(
      libraryOf(
        [CADDYFILE],
        weightsOf({ caddyfile: 5, default: 1, directory: 2, site: 2, served: 2, path: 1.5 }),
      ),
      'In the default Caddyfile, from which directory is the site served?',
    );
    expect(answer).toContain("Set this path to your site's directory.");
    expect(answer).toContain('root * /usr/share/caddy');
  });
});
