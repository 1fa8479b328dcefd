// The machinery that turns a recipe into a corpus of real documents from Debian packages:
// `apt-get download` into `<cache>/debs`, `dpkg-deb -x` into `<cache>/root/<package>`, the
// documents laid out in one flat folder with a MANIFEST.json beside it, rebuilt when the recipe
// changes. bench/real/heldout.js builds on it; bench/real/fetch.js (the default corpus, at the top
// of the cache) uses its functions with a layout of its own.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import zlib from 'node:zlib';

/** Where every corpus, its downloads and the unpacked packages are kept. */
export function cacheDir() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'kb-bench-real');
}

/** Programs every recipe runs, and the Debian package that provides each. */
export const BASE_TOOLS = [
  { what: 'apt-get', pkg: 'apt', present: () => onPath('apt-get') },
  { what: 'dpkg-deb', pkg: 'dpkg', present: () => onPath('dpkg-deb') },
];

export const GROFF = {
  what: 'gropdf (groff -Tpdf)',
  pkg: 'groff',
  present: () => onPath('groff') && onPath('gropdf'),
};

/**
 * The corpus `<cache>/<name>/corpus` with its `<cache>/<name>/MANIFEST.json`, built by `build` if
 * missing or made by another recipe (`recipe`, a hash). `build(add, roots)` lays the documents
 * out: `add(name, package, source, write)` calls `write(to, from)` with the document's path in the
 * corpus and its source's path inside the unpacked package, and records both in the manifest.
 * Downloads (`<cache>/debs`) and unpacked packages (`<cache>/root`) are shared by every corpus.
 */
export async function ensureRecipe({ name, recipe, packages, tools, build, log }) {
  const cache = cacheDir();
  const home = path.join(cache, name);
  const dir = path.join(home, 'corpus');
  const manifestPath = path.join(home, 'MANIFEST.json');
  const current = readJson(manifestPath);
  if (
    current?.recipe === recipe &&
    Object.keys(current.files).every((f) => fs.existsSync(path.join(dir, f)))
  ) {
    return { dir, files: Object.keys(current.files).sort() };
  }

  ensureTools([...BASE_TOOLS, ...tools], log);
  const versions = downloadAll(packages, path.join(cache, 'debs'), path.join(cache, 'root'), log);
  const roots = Object.fromEntries(packages.map(([pkg]) => [pkg, path.join(cache, 'root', pkg)]));

  const staging = path.join(home, 'corpus.partial');
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  const files = {};
  const add = (file, pkg, source, write) => {
    if (files[file]) throw new Error(`two documents named ${file}`);
    const from = path.join(roots[pkg], source);
    if (!fs.existsSync(from)) throw new Error(`${pkg} ${versions[pkg]} has no /${source}`);
    write(path.join(staging, file), from);
    files[file] = { package: pkg, version: versions[pkg], source: `/${source}` };
  };

  log(`kb-bench-real: building the ${name} corpus`);
  build(add, roots);

  const pages = await checkPdfs(staging, Object.keys(files));
  for (const [file, count] of Object.entries(pages)) files[file].pages = count;

  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(staging, dir);
  const manifest = { recipe, built: new Date().toISOString(), packages: versions, files };
  fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, files: Object.keys(files).sort() };
}

/** `write` for add(): the file as shipped. */
export const copy = (to, from) => fs.writeFileSync(to, gunzip(from));

/** `write` for add(): a (gzipped) man page rendered as fetch.js renders them. */
export const manToPdf = (to, from) =>
  fs.writeFileSync(to, run('groff', ['-k', '-man', '-Tpdf', '-P-pa4'], { input: gunzip(from) }));

// --- tools -------------------------------------------------------------------------------------

export function onPath(command) {
  return (process.env.PATH || '')
    .split(path.delimiter)
    .some((folder) => folder && isExecutable(path.join(folder, command)));
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export function ensureTools(tools, log) {
  let missing = tools.filter((tool) => !tool.present());
  if (missing.length === 0) return;
  const pkgs = [...new Set(missing.map((tool) => tool.pkg))];
  const command = `apt-get install -y --no-install-recommends ${pkgs.join(' ')}`;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && onPath('apt-get')) {
    log(`kb-bench-real: installing ${pkgs.join(', ')}`);
    let result = spawnSync('apt-get', command.split(' ').slice(1), { encoding: 'utf8' });
    if (result.status !== 0 && /Unable to locate|has no installation candidate/.test(result.stderr)) {
      aptUpdate(log);
      result = spawnSync('apt-get', command.split(' ').slice(1), { encoding: 'utf8' });
    }
    if (result.status !== 0) {
      throw new Error(`could not install ${pkgs.join(', ')} (${command}):\n${result.stderr.trim()}`);
    }
    missing = tools.filter((tool) => !tool.present());
    if (missing.length === 0) return;
  }
  const what = missing.map((tool) => `${tool.what} (package ${tool.pkg})`).join(', ');
  throw new Error(`missing ${what}; install with: sudo ${command}`);
}

function aptUpdate(log) {
  if (process.getuid?.() !== 0) return false;
  log('kb-bench-real: apt-get update');
  const result = spawnSync('apt-get', ['update'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`apt-get update failed:\n${result.stderr.trim()}`);
  return true;
}

// --- packages ----------------------------------------------------------------------------------

/** Downloads each package once into `debs`, unpacks it into `root/<package>`; returns versions. */
export function downloadAll(packages, debs, root, log) {
  fs.mkdirSync(debs, { recursive: true });
  const versions = {};
  let updated = false;
  for (const [pkg, pinned] of packages) {
    let deb = findDeb(debs, pkg, pinned);
    if (!deb) {
      log(`kb-bench-real: apt-get download ${pkg}`);
      let result = aptDownload(debs, `${pkg}=${pinned}`);
      if (result.status !== 0 && /Unable to locate package/.test(result.stderr) && !updated) {
        updated = aptUpdate(log);
        if (updated) result = aptDownload(debs, `${pkg}=${pinned}`);
      }
      if (result.status !== 0 && /Version '.*' for '.*' was not found/.test(result.stderr)) {
        result = aptDownload(debs, pkg);
        if (result.status === 0)
          log(`kb-bench-real: ${pkg} ${pinned} is gone from the archive; using the current version`);
      }
      if (result.status !== 0) {
        const reason = result.stderr
          .split('\n')
          .filter((line) => line.startsWith('E:'))
          .join(' ');
        const hint = /Unable to locate package/.test(result.stderr)
          ? ' (run `sudo apt-get update`; the package is in Debian 12 main)'
          : '';
        throw new Error(`cannot download package ${pkg}: ${reason || result.stderr.trim()}${hint}`);
      }
      deb = findDeb(debs, pkg, pinned) ?? newestDeb(debs, pkg);
      if (!deb) throw new Error(`apt-get download ${pkg} succeeded but left no ${pkg}_*.deb in ${debs}`);
    }
    versions[pkg] = execFileSync('dpkg-deb', ['-f', deb, 'Version'], { encoding: 'utf8' }).trim();
    const target = path.join(root, pkg);
    const marker = path.join(target, '.kb-deb');
    if (readText(marker) !== path.basename(deb)) {
      fs.rmSync(target, { recursive: true, force: true });
      fs.mkdirSync(target, { recursive: true });
      run('dpkg-deb', ['-x', deb, target]);
      fs.writeFileSync(marker, path.basename(deb));
    }
  }
  return versions;
}

function aptDownload(folder, spec) {
  return spawnSync('apt-get', ['download', spec], { cwd: folder, encoding: 'utf8' });
}

/** apt-get names a download `<package>_<version, ':' as %3a>_<arch>.deb`. */
function findDeb(folder, pkg, version) {
  const prefix = `${pkg}_${version.replace(/:/g, '%3a')}_`;
  const name = fs.readdirSync(folder).find((f) => f.startsWith(prefix) && f.endsWith('.deb'));
  return name && path.join(folder, name);
}

function newestDeb(folder, pkg) {
  const names = fs.readdirSync(folder).filter((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
  return names
    .map((f) => path.join(folder, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
}

// --- formats -----------------------------------------------------------------------------------

export function gunzip(file) {
  const data = fs.readFileSync(file);
  return file.endsWith('.gz') ? zlib.gunzipSync(data) : data;
}

/** Every PDF must have a text layer; returns page counts. */
export async function checkPdfs(folder, names) {
  const { getDocumentProxy } = await import('unpdf');
  const pages = {};
  for (const name of names.filter((n) => n.endsWith('.pdf'))) {
    const doc = await getDocumentProxy(new Uint8Array(fs.readFileSync(path.join(folder, name))));
    let chars = 0;
    for (let p = 1; p <= Math.min(doc.numPages, 5); p++) {
      const content = await (await doc.getPage(p)).getTextContent();
      chars += content.items.reduce((sum, item) => sum + ('str' in item ? item.str.length : 0), 0);
    }
    if (chars < 200) throw new Error(`${name} has no text layer (${chars} characters in its first pages)`);
    pages[name] = doc.numPages;
    await doc.destroy();
  }
  return pages;
}

// --- small helpers -----------------------------------------------------------------------------

export function run(command, args, { input, env } = {}) {
  const result = spawnSync(command, args, {
    input,
    env: env ? { ...process.env, ...env } : process.env,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${String(result.stderr).trim()}`);
  }
  return result.stdout;
}

export function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function readText(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
