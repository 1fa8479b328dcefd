// The held-out corpus: real documents from Debian packages that nobody tunes kb on, asked the
// questions of bench/real/heldout.yaml (BENCH_REAL_CORPUS=heldout node bench/real/run.js). Built by
// the same machinery as the default corpus (bench/real/debian.js) into
// `${XDG_CACHE_HOME:-~/.cache}/kb-bench-real/heldout/corpus`. See bench/real/README.md.
// `node bench/real/heldout.js` builds it (or checks it) and prints a one-line summary.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GROFF, copy, ensureRecipe, manToPdf } from './debian.js';
import { summary } from './fetch.js';

/** Every package the corpus comes from, with the version this recipe was written against (Debian 12). */
export const PACKAGES = [
  ['sqlite3-doc', '3.40.1-2+deb12u2'],
  ['git-doc', '1:2.39.5-0+deb12u3'],
  ['rsync', '3.5.0+ds1-0+deb12u1'],
  ['openssh-client', '1:9.2p1-2+deb12u10'],
  ['curl', '7.88.1-10+deb12u15'],
  ['tzdata', '2026f-0+deb12u1'],
];

const SQLITE_HTML = 'usr/share/doc/sqlite3';
/** SQLite pages besides every lang_*.html (the SQL language reference). */
const SQLITE_PAGES = [
  'pragma',
  'faq',
  'limits',
  'wal',
  'whentouse',
  'foreignkeys',
  'inmemorydb',
  'datatype3',
  'fileformat2',
  'uri',
  'rescode',
  'backup',
];

const GIT_DOC = 'usr/share/doc/git-doc';
const GIT_PAGES = [
  'git-commit',
  'git-rebase',
  'gitignore',
  'git-stash',
  'git-log',
  'git-config',
  'git-revert',
  'git-bisect',
];

/** [package, section, page] */
const MAN_PAGES = [
  ['rsync', 1, 'rsync'],
  ['rsync', 5, 'rsyncd.conf'],
  ['openssh-client', 1, 'ssh'],
  ['openssh-client', 5, 'ssh_config'],
  ['openssh-client', 1, 'ssh-keygen'],
  ['openssh-client', 1, 'scp'],
  ['openssh-client', 1, 'ssh-agent'],
  ['curl', 1, 'curl'],
];

/** Changes whenever this recipe or the machinery does, so either edit rebuilds the corpus. */
const RECIPE = createHash('sha256')
  .update(fs.readFileSync(fileURLToPath(import.meta.url)))
  .update(fs.readFileSync(fileURLToPath(new URL('./debian.js', import.meta.url))))
  .digest('hex')
  .slice(0, 16);

/** The held-out corpus folder, built if missing or made by another recipe: `{ dir, files }`. */
export function ensureCorpus({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  return ensureRecipe({ name: 'heldout', recipe: RECIPE, packages: PACKAGES, tools: [GROFF], build, log });
}

function build(add, roots) {
  const sqlite = fs
    .readdirSync(path.join(roots['sqlite3-doc'], SQLITE_HTML))
    .filter((f) => /^lang_.*\.html$/.test(f))
    .map((f) => f.replace(/\.html$/, ''));
  for (const page of [...sqlite.sort(), ...SQLITE_PAGES]) {
    add(`sqlite-${page}.html`, 'sqlite3-doc', `${SQLITE_HTML}/${page}.html`, copy);
  }

  for (const page of GIT_PAGES) add(`${page}.html`, 'git-doc', `${GIT_DOC}/${page}.html`, copy);
  const howtos = fs
    .readdirSync(path.join(roots['git-doc'], GIT_DOC, 'howto'))
    .filter((f) => f.endsWith('.txt'));
  for (const howto of howtos.sort()) add(`git-howto-${howto}`, 'git-doc', `${GIT_DOC}/howto/${howto}`, copy);

  for (const [pkg, section, page] of MAN_PAGES) {
    add(`man-${page}.pdf`, pkg, `usr/share/man/man${section}/${page}.${section}.gz`, manToPdf);
  }

  add('rsync-NEWS.md', 'rsync', 'usr/share/doc/rsync/NEWS.md.gz', copy);
  add('tzdata-zone1970.tsv', 'tzdata', 'usr/share/zoneinfo/zone1970.tab', copy);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(summary(await ensureCorpus()));
  } catch (error) {
    console.error(`kb-bench-real: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
