// Preloaded with --import: records every module the process resolves (ESM) or requires (CJS)
// into the file named by KB_TRACE_FILE, one file name or URL per line.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';

const file = process.env.KB_TRACE_FILE;
if (file) {
  // Building an Intl.Segmenter (wrap-ansi, string-width) costs ~15 ms: recorded as 'intl Segmenter'.
  const Segmenter = Intl.Segmenter;
  Intl.Segmenter = class extends Segmenter {
    constructor(...args) {
      appendFileSync(file, 'intl Segmenter\n');
      super(...args);
    }
  };
  const load = Module._load;
  Module._load = function (request, parent, ...rest) {
    let resolved = request;
    try {
      resolved = Module._resolveFilename(request, parent);
    } catch {
      // recorded as requested; the load itself reports the failure
    }
    appendFileSync(file, `cjs ${resolved}\n`);
    return load.call(this, request, parent, ...rest);
  };
  const hook = `
    import { appendFileSync } from 'node:fs';
    export async function resolve(specifier, context, next) {
      const result = await next(specifier, context);
      appendFileSync(${JSON.stringify(file)}, 'esm ' + result.url + '\\n');
      return result;
    }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
}
