// The CLI bundle: our code with commander, chalk, wrap-ansi, cli-table3 and undici's Agent in
// chunks, so start-up reads a handful of files instead of ~60. Heavy packages stay external and
// are loaded only by the commands that need them (a test checks that `kb --help` loads none).
import { readFileSync } from 'node:fs';

const { version, dependencies } = JSON.parse(
  readFileSync(new URL('./package.json', import.meta.url), 'utf8'),
);
const bundled = new Set(['commander', 'chalk', 'wrap-ansi', 'undici', 'cli-table3']);
const external = Object.keys(dependencies).filter((name) => !bundled.has(name));

/**
 * Modules that bundled packages require at start-up, replaced in the bundle by smaller
 * stand-ins. Each is loaded for something kb never does, and costs time on every command.
 */
const standIns = [
  {
    // kb never speaks HTTP/2, but undici's client loads its HTTP/2 support (and with it
    // node:http2, node:tls, ...) at start-up.
    source: './client-h2.js',
    importer: /undici\/lib\/dispatcher\/client\.js$/,
    code: "module.exports = function connectH2() { throw new Error('HTTP/2 is not supported by kb'); };",
  },
  {
    // undici loads node:http (client and server) for two things: to recognise a request body
    // that is an IncomingMessage, which kb never sends, and for the default maxHeaderSize,
    // which kb's transport sets itself.
    source: 'node:http',
    importer: /undici\/lib\/(core\/util|dispatcher\/client)\.js$/,
    code: 'module.exports = { IncomingMessage: class IncomingMessage {}, maxHeaderSize: 16384 };',
  },
  {
    // commander needs child_process only to run external subcommands, which kb has none of.
    source: 'node:child_process',
    importer: /commander\/lib\/command\.js$/,
    code: "let loaded; module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require('node:child_process'))[key] });",
  },
];

const withStandIns = {
  name: 'stand-ins',
  resolveId(source, importer) {
    const from = importer?.replace(/\\/g, '/') ?? '';
    const index = standIns.findIndex((s) => s.source === source && s.importer.test(from));
    return index === -1 ? null : `\0stand-in-${index}`;
  },
  load(id) {
    const match = /^\0stand-in-(\d+)$/.exec(id);
    return match ? standIns[Number(match[1])].code : null;
  },
};

export default {
  // compile-cache is loaded first, by Node itself (bin/kb.cjs).
  input: { kb: 'src/main.ts', 'compile-cache': 'src/compile-cache.ts' },
  plugins: [withStandIns],
  platform: 'node',
  // Node's built-in modules stay external by themselves (platform: 'node'); listing them here
  // would keep the stand-ins above from being used.
  external: [...external.map((name) => new RegExp(`^${name.replace('/', '\\/')}(\\/|$)`))],
  transform: { define: { __KB_VERSION__: JSON.stringify(version) } },
  output: {
    dir: 'dist/cli',
    format: 'cjs',
    entryFileNames: '[name].cjs',
    // Chunks in chunks/ are compiled through the code cache; import-package must be loaded by
    // Node itself (see src/import-package.ts).
    chunkFileNames: (chunk) =>
      chunk.name === 'import-package' ? '[name]-[hash].cjs' : 'chunks/[name]-[hash].cjs',
    minify: true,
    sourcemap: true,
    codeSplitting: {
      groups: [
        { name: 'import-package', test: /src[\\/]import-package/, priority: 10 },
        // What `kb --help` needs, and no more.
        {
          name: 'core',
          test: /src[\\/](main|program|running|errors|version|io[\\/](exit|signals)|commands[\\/](registry|help))|node_modules[\\/]commander[\\/]/,
        },
        // What every command that runs needs: context, config, output, errors (the API's too), colour.
        {
          name: 'runtime',
          test: /src[\\/](factory|report|io[\\/](color|streams|output|format)|api[\\/]errors|config[\\/]|util[\\/])|node_modules[\\/]chalk[\\/]/,
        },
        // Shared by the compile cache (loaded first, see bin/kb.cjs) and the HTTP transport.
        { name: 'v8-flags', test: /src[\\/]v8-flags/, priority: 10 },
        { name: 'http', test: /src[\\/]api[\\/](?!types|errors|limits)|node_modules[\\/]undici[\\/]/ },
      ],
    },
  },
};
