// A corpus of real documents nobody on this project wrote, built from Debian packages: fetched
// with `apt-get download` (no root needed), unpacked with `dpkg-deb -x`, and laid out in one flat
// folder. See bench/real/README.md. `node bench/real/fetch.js` builds it (or checks it) and prints
// a one-line summary; `ensureCorpus()` does the same for the benchmark.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, checkPdfs, downloadAll, ensureTools, gunzip, onPath, readJson, run } from './debian.js';

export { cacheDir };

/** Every package the corpus comes from, with the version this recipe was written against (Debian 12). */
export const PACKAGES = [
  ['python3.11-doc', '3.11.2-6+deb12u9'],
  ['coreutils', '9.1-1'],
  ['grep', '3.8-5'],
  ['sed', '4.9-1+deb12u1'],
  ['tar', '1.34+dfsg-1.2+deb12u1'],
  ['findutils', '4.9.0-4'],
  ['locate', '4.9.0-4'],
  ['gzip', '1.12-1'],
  ['bash-doc', '5.2.15-2'],
  ['gnuplot-doc', '5.4.4+dfsg1-2'],
  ['debian-reference-en', '2.100'],
  ['debian-faq', '11.1'],
  ['python3-requests', '2.28.1+dfsg-1'],
  ['python3-tqdm', '4.64.1-1'],
  ['python3-tabulate', '0.8.9-1'],
  ['jq', '1.6-2.1+deb12u3'],
  ['tmux', '3.3a-3'],
  ['python3-rich', '13.3.1-1'],
  ['python3-httpx', '0.23.3-1'],
  ['python3-dotenv', '0.21.0-1'],
  ['python3-tomli', '2.0.1-2'],
  ['python3-yaml', '6.0-3+b2'],
  ['distro-info-data', '0.58+deb12u7'],
  ['iso-codes', '4.15.0-1'],
  ['bible-kjv', '4.38'],
  ['bible-kjv-text', '4.38'],
];

/** Programs the recipe runs, and the Debian package that provides each. */
const TOOLS = [
  { what: 'apt-get', pkg: 'apt', present: () => onPath('apt-get') },
  { what: 'dpkg-deb', pkg: 'dpkg', present: () => onPath('dpkg-deb') },
  { what: 'gropdf (groff -Tpdf)', pkg: 'groff', present: () => onPath('groff') && onPath('gropdf') },
  { what: 'pandoc', pkg: 'pandoc', present: () => onPath('pandoc') },
  // The `bible` program from bible-kjv prints the King James text out of its compressed data file.
  { what: 'libreadline.so.8 (for bible-kjv)', pkg: 'libreadline8', present: () => installed('libreadline8') },
];

const MAN_PAGES = [
  ...['ls', 'cp', 'mv', 'rm', 'chmod', 'chown', 'du', 'df', 'sort', 'uniq', 'cut', 'tr', 'wc'].map((c) => [
    'coreutils',
    c,
  ]),
  ...['head', 'tail', 'date', 'stat', 'touch', 'ln', 'mkdir'].map((c) => ['coreutils', c]),
  ['findutils', 'find'],
  ['findutils', 'xargs'],
  ['grep', 'grep'],
  ['sed', 'sed'],
  ['tar', 'tar'],
  ['locate', 'locate.findutils'],
  ['gzip', 'gzip'],
];

/** GNU manuals as they ship in info form. tar's (tar-doc) is in non-free, so gzip's stands in. */
const INFO_MANUALS = [
  ['coreutils', 'coreutils'],
  ['grep', 'grep'],
  ['sed', 'sed'],
  ['findutils', 'find'],
  ['gzip', 'gzip'],
];

/** PDFs as Debian ships them: [package, path, name in the corpus]. */
const SHIPPED_PDFS = [
  ['bash-doc', 'usr/share/doc/bash/bashref.pdf', 'bash-doc-bashref.pdf'],
  ['gnuplot-doc', 'usr/share/doc/gnuplot/gnuplot.pdf', 'gnuplot-doc-gnuplot.pdf'],
  [
    'debian-reference-en',
    'usr/share/debian-reference/debian-reference.en.pdf',
    'debian-reference-en-debian-reference.en.pdf',
  ],
  ['debian-faq', 'usr/share/doc/debian/FAQ/debian-faq.en.pdf.gz', 'debian-faq-debian-faq.en.pdf'],
];

/** READMEs converted to DOCX with pandoc: [package, path, pandoc input format]. */
const DOCX_READMES = [
  ['python3-requests', 'usr/share/doc/python3-requests/README.md', 'markdown'],
  ['python3-tqdm', 'usr/share/doc/python3-tqdm/README.rst.gz', 'rst'],
  ['python3-tabulate', 'usr/share/doc/python3-tabulate/README.md.gz', 'markdown'],
  ['jq', 'usr/share/doc/jq/README', 'markdown'],
  ['tmux', 'usr/share/doc/tmux/README', 'markdown'],
  ['coreutils', 'usr/share/doc/coreutils/README.gz', 'markdown'],
];

/** READMEs kept as Markdown: [package, path]. */
const MD_READMES = [
  ['python3-rich', 'usr/share/doc/python3-rich/README.md.gz'],
  ['python3-httpx', 'usr/share/doc/python3-httpx/README.md.gz'],
  ['python3-dotenv', 'usr/share/doc/python3-dotenv/README.md.gz'],
  ['python3-tomli', 'usr/share/doc/python3-tomli/README.md.gz'],
  ['python3-yaml', 'usr/share/doc/python3-yaml/README.md'],
];

const DATA_FILES = [
  ['distro-info-data', 'usr/share/distro-info/debian.csv', 'data-debian.csv'],
  ['distro-info-data', 'usr/share/distro-info/ubuntu.csv', 'data-ubuntu.csv'],
  ['iso-codes', 'usr/share/iso-codes/json/iso_3166-1.json', 'data-iso_3166-1.json'],
  ['iso-codes', 'usr/share/iso-codes/json/iso_4217.json', 'data-iso_4217.json'],
  ['iso-codes', 'usr/share/iso-codes/json/iso_639-2.json', 'data-iso_639-2.json'],
  ['iso-codes', 'usr/share/iso-codes/json/iso_15924.json', 'data-iso_15924.json'],
];

const PYTHON_HTML = 'usr/share/doc/python3.11/html';

/** Changes whenever this file or the machinery it uses does, so an edited recipe rebuilds the corpus. */
const RECIPE = createHash('sha256')
  .update(fs.readFileSync(fileURLToPath(import.meta.url)))
  .update(fs.readFileSync(fileURLToPath(new URL('debian.js', import.meta.url))))
  .digest('hex')
  .slice(0, 16);

/**
 * The corpus folder, built if missing or made by another recipe. Returns the folder and its
 * document names (sorted). Throws an Error that says what is missing and how to install it.
 */
export async function ensureCorpus({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const cache = cacheDir();
  const dir = path.join(cache, 'corpus');
  const manifestPath = path.join(cache, 'MANIFEST.json');
  const current = readJson(manifestPath);
  if (
    current?.recipe === RECIPE &&
    Object.keys(current.files).every((name) => fs.existsSync(path.join(dir, name)))
  ) {
    return { dir, files: Object.keys(current.files).sort() };
  }

  ensureTools(TOOLS, log);
  const versions = downloadAll(PACKAGES, path.join(cache, 'debs'), path.join(cache, 'root'), log);
  const roots = Object.fromEntries(PACKAGES.map(([pkg]) => [pkg, path.join(cache, 'root', pkg)]));

  const staging = path.join(cache, 'corpus.partial');
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  const files = {};
  const add = (name, pkg, source, write) => {
    if (files[name]) throw new Error(`two documents named ${name}`);
    write(path.join(staging, name), path.join(roots[pkg], source));
    files[name] = { package: pkg, version: versions[pkg], source: `/${source}` };
  };
  const copy = (to, from) => fs.copyFileSync(from, to);

  log('kb-bench-real: building the corpus');
  for (const part of ['library', 'tutorial']) {
    const folder = path.join(roots['python3.11-doc'], PYTHON_HTML, part);
    for (const entry of fs.readdirSync(folder).filter((f) => f.endsWith('.html'))) {
      add(`python-${part}-${entry}`, 'python3.11-doc', `${PYTHON_HTML}/${part}/${entry}`, copy);
    }
  }
  add('python-genindex-all.html', 'python3.11-doc', `${PYTHON_HTML}/genindex-all.html`, copy);
  add('python-contents.html', 'python3.11-doc', `${PYTHON_HTML}/contents.html`, copy);

  for (const [pkg, manual] of INFO_MANUALS) {
    add(`gnu-${manual}.txt`, pkg, `usr/share/info/${manual}.info.gz`, (to, from) =>
      fs.writeFileSync(to, infoToText(from)),
    );
  }

  for (const [pkg, page] of MAN_PAGES) {
    const name = `man-${page.replace(/\.findutils$/, '')}.pdf`;
    add(name, pkg, `usr/share/man/man1/${page}.1.gz`, (to, from) => {
      const pdf = run('groff', ['-k', '-man', '-Tpdf', '-P-pa4'], { input: gunzip(from) });
      fs.writeFileSync(to, pdf);
    });
  }

  for (const [pkg, source, name] of SHIPPED_PDFS) {
    add(name, pkg, source, (to, from) => fs.writeFileSync(to, gunzip(from)));
  }

  for (const [pkg, source, format] of DOCX_READMES) {
    add(`readme-${pkg}.docx`, pkg, source, (to, from) =>
      run('pandoc', ['-f', format, '-t', 'docx', '-o', to], { input: gunzip(from) }),
    );
  }
  for (const [pkg, source] of MD_READMES) {
    add(`readme-${pkg}.md`, pkg, source, (to, from) => fs.writeFileSync(to, gunzip(from)));
  }

  for (const [pkg, source, name] of DATA_FILES) add(name, pkg, source, copy);

  add('large-unrelated.txt', 'bible-kjv-text', 'usr/lib/bible.data', (to, from) => {
    const bible = path.join(roots['bible-kjv'], 'usr/bin/bible');
    const text = run(bible, ['-p', path.dirname(from), 'gen1:1-rev22:21'], { env: { COLUMNS: '80' } });
    if (text.length < 4_000_000) throw new Error(`bible-kjv printed only ${text.length} bytes`);
    fs.writeFileSync(to, text);
  });

  const pages = await checkPdfs(staging, Object.keys(files));
  for (const [name, count] of Object.entries(pages)) files[name].pages = count;

  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(staging, dir);
  const manifest = { recipe: RECIPE, built: new Date().toISOString(), packages: versions, files };
  fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, files: Object.keys(files).sort() };
}

// --- tools -------------------------------------------------------------------------------------

function installed(pkg) {
  const result = spawnSync('dpkg-query', ['-W', '-f', '${Status}', pkg], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.includes('install ok installed');
}

// --- packages ----------------------------------------------------------------------------------

// --- formats -----------------------------------------------------------------------------------

/**
 * A whole info manual as plain text: the parts of a split manual joined in the order its
 * `Indirect:` table lists them, without the node header lines, the tag table, the
 * directory entries or the index markers, and with no control character but newline and tab.
 */
export function infoToText(mainFile) {
  const main = gunzip(mainFile).toString('utf8');
  const indirect = main.match(/\x1f\nIndirect:\n([\s\S]*?)\x1f/);
  const parts = indirect
    ? indirect[1]
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const part = line.replace(/: \d+$/, '');
          return gunzip(path.join(path.dirname(mainFile), `${part}.gz`)).toString('utf8');
        })
    : [main];
  const sections = [];
  for (const [i, part] of parts.entries()) {
    for (const [j, section] of part.split('\x1f').entries()) {
      if (j === 0) {
        // The preamble: the first part's is the manual's title and copyright, without the
        // directory entries; the other parts repeat a "This is ..." line.
        if (i === 0) {
          sections.push(
            section
              .replace(/INFO-DIR-SECTION .*\n/g, '')
              .replace(/START-INFO-DIR-ENTRY\n[\s\S]*?END-INFO-DIR-ENTRY\n/g, ''),
          );
        }
        continue;
      }
      const body = section.replace(/^\n/, '');
      if (/^(Indirect:|Tag Table:|End Tag Table|Local Variables:)/.test(body)) continue;
      sections.push(body.replace(/^File: [^\n]*\n/, ''));
    }
  }
  return (
    sections
      .join('\n')
      .replace(/\x00\x08\[[^\x00]*\x00\x08\]/g, '')
      .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim() + '\n'
  );
}

// --- small helpers -----------------------------------------------------------------------------

/** One line: documents per extension and total size. */
export function summary({ dir, files }) {
  const counts = {};
  let bytes = 0;
  for (const name of files) {
    const ext = path.extname(name).slice(1);
    counts[ext] = (counts[ext] ?? 0) + 1;
    bytes += fs.statSync(path.join(dir, name)).size;
  }
  const parts = Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([ext, n]) => `${n} ${ext}`);
  return `${dir}: ${files.length} files (${parts.join(', ')}), ${(bytes / 1e6).toFixed(1)} MB`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(summary(await ensureCorpus()));
  } catch (error) {
    console.error(`kb-bench-real: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
