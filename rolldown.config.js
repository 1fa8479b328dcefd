// The CLI bundle: our code with commander, chalk and wrap-ansi in a few chunks, so start-up
// reads a handful of files instead of ~60. Heavy packages stay external and are loaded only
// by the commands that need them (a test checks that `kb --help` loads none of them).
import { readFileSync } from 'node:fs';

const { version, dependencies } = JSON.parse(
  readFileSync(new URL('./package.json', import.meta.url), 'utf8'),
);
const bundled = new Set(['commander', 'chalk', 'wrap-ansi', 'undici']);
const external = Object.keys(dependencies).filter((name) => !bundled.has(name));

/**
 * kb never speaks HTTP/2, but undici's client loads its HTTP/2 support (and with it node:http2,
 * node:tls, ...) at start-up. In the bundle, that module is replaced by one that refuses.
 */
const withoutHttp2 = {
  name: 'undici-without-http2',
  resolveId(source, importer) {
    if (
      source === './client-h2.js' &&
      importer?.replace(/\\/g, '/').endsWith('undici/lib/dispatcher/client.js')
    )
      return '\0undici-no-h2';
    return null;
  },
  load(id) {
    if (id !== '\0undici-no-h2') return null;
    return "module.exports = function connectH2() { throw new Error('HTTP/2 is not supported by kb'); };";
  },
};

export default {
  input: { kb: 'src/main.ts' },
  plugins: [withoutHttp2],
  platform: 'node',
  external: [/^node:/, ...external.map((name) => new RegExp(`^${name.replace('/', '\\/')}(\\/|$)`))],
  transform: { define: { __KB_VERSION__: JSON.stringify(version) } },
  output: {
    dir: 'dist/cli',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    minify: true,
    sourcemap: true,
    codeSplitting: {
      groups: [
        // What `kb --help` needs, and no more.
        {
          name: 'core',
          test: /src[\\/](main|program|running|errors|version|commands[\\/](registry|help))|node_modules[\\/]commander[\\/]/,
        },
        // What every command that runs needs: context, config, output, errors, colour.
        {
          name: 'runtime',
          test: /src[\\/](factory|report|io[\\/](color|streams|output|format)|config[\\/]|util[\\/])|node_modules[\\/]chalk[\\/]/,
        },
        { name: 'http', test: /src[\\/]api[\\/](?!types)|node_modules[\\/]undici[\\/]/ },
      ],
    },
  },
};
