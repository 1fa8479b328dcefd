import { STATUS_CODES } from 'node:http';
import { Command } from 'commander';
import type { RequestOptions } from '../../api/client.js';
import { UsageError } from '../../errors.js';
import { Context } from '../../factory.js';
import { readStdinBytes } from '../../io/stdin.js';
import { MAX_REQUEST_BYTES } from '../../api/limits.js';
import { sanitizeField } from '../../util/sanitize.js';
import { readUserFile } from '../../util/user-file.js';
import { collect } from '../shared/options.js';
import { nextPage, type PageRequest, requestKey } from '../../api/paging.js';
import { toPage } from '../../api/envelope.js';
import { header, stringField, typedField } from './fields.js';

interface ApiOptions {
  field: string[];
  query: string[];
  header: string[];
  input?: string;
  include?: boolean;
  paginate?: boolean;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

export default function apiCommand(run = runApi): Command {
  return new Command('api')
    .description('Call any endpoint: the escape hatch for what the commands do not cover')
    .argument('<method>', METHODS.join('|'))
    .argument('<path>', 'path below the base URL, e.g. /v1/threads')
    .option(
      '-f, --field <key=value>',
      'body field (query parameter for GET): numbers, true/false/null, @file for a file (repeatable)',
      collect,
      [],
    )
    .option('-q, --query <key=value>', 'query parameter, as a string (repeatable)', collect, [])
    .option(
      '-H, --header <name: value>',
      'extra request header (repeatable; Authorization is not allowed)',
      collect,
      [],
    )
    .option('--input <file>', 'raw request body from a file, or - for stdin')
    .option('-i, --include', 'print the status line and response headers before the body, as curl -i')
    .option('--paginate', "GET: follow the service's paging and print every page's body, one after another")
    .addHelpText(
      'after',
      `
The response body is printed unmodified when piped. Same auth, retries, timeouts, --debug and exit codes
as every other command; an error body is printed too before the error line.

Examples:
  $ kb api GET /v1/threads -q status=OPEN -q limit=5 | jq '.data[].title'
  $ kb api GET /v1/files --paginate | jq -r '.data[].id'
  $ kb api POST /v1/threads -f title="From the API"
  $ kb api PATCH /v1/threads/thr_123 -f status=CLOSED
  $ kb api POST /v1/threads/thr_123/messages --input message.json --include`,
    )
    .action((method: string, path: string, opts: ApiOptions, cmd: Command) =>
      run(Context.for(cmd), method, path, opts),
    );
}

/** A request body from a file, refused before it is read when it is larger than any request may be. */
function readBodyFile(path: string): Buffer {
  return readUserFile(path, '--input', MAX_REQUEST_BYTES);
}

export async function runApi(
  ctx: Context,
  methodArg: string,
  pathArg: string,
  opts: ApiOptions,
): Promise<void> {
  const method = methodArg.toUpperCase() as RequestOptions['method'];
  if (!(METHODS as readonly string[]).includes(method))
    throw new UsageError(`unknown method "${methodArg}"`, `use one of ${METHODS.join(', ')}`);
  if (/^[a-z]+:\/\//i.test(pathArg))
    throw new UsageError('give a path below the base URL, not a full URL', 'e.g. kb api GET /v1/threads');
  const [rawPath = '', rawQuery] = (pathArg.startsWith('/') ? pathArg : `/${pathArg}`).split('?', 2);
  const query: Record<string, string> = Object.fromEntries(new URLSearchParams(rawQuery ?? ''));
  for (const pair of opts.query) {
    const [k, v] = stringField(pair);
    query[k] = v;
  }
  const headers: Record<string, string> = {};
  for (const line of opts.header) {
    const [name, value] = header(line);
    if (name === 'authorization') {
      throw new UsageError(
        'kb api sets Authorization from your profile and will not override it',
        'log in with `kb auth login` or set KB_API_KEY',
      );
    }
    headers[name] = value;
  }
  const fields = Object.fromEntries(opts.field.map(typedField));
  if (opts.input !== undefined && opts.field.length) throw new UsageError('use --input or --field, not both');
  const request: RequestOptions = { method, path: rawPath, query, headers, signal: ctx.signal };
  if (opts.input !== undefined) {
    request.rawBody =
      opts.input === '-'
        ? await readStdinBytes(ctx.io, 'the request body', MAX_REQUEST_BYTES)
        : readBodyFile(opts.input);
    headers['content-type'] ??= 'application/json';
  } else if (opts.field.length) {
    if (method === 'GET' || method === 'HEAD')
      for (const [k, v] of Object.entries(fields)) query[k] = String(v);
    else request.body = fields;
  }

  if (opts.paginate && method !== 'GET')
    throw new UsageError('--paginate follows the pages of a GET', `not of a ${method}`);
  const client = await ctx.client();
  const show = (res: { status: number; headers: Record<string, string>; rawBody: Buffer }) => {
    const { output } = ctx;
    if (opts.include) {
      const lines = Object.entries(res.headers).map(([k, v]) => `${sanitizeField(k)}: ${sanitizeField(v)}\n`);
      output.text(
        `HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trimEnd() + `\n${lines.join('')}\n`,
      );
    }
    output.bytes(res.rawBody);
    // A prompt after a body without a final newline would be glued to it; piped, bytes stay exact.
    if (ctx.io.stdoutIsTTY && res.rawBody.length && res.rawBody.at(-1) !== 0x0a) output.text('\n');
  };
  // An event stream is passed through as it arrives, byte for byte.
  request.stream = true;
  const send = async (req: RequestOptions) => {
    try {
      const response = await client.request(req);
      show(response);
      if (response.chunks) for await (const chunk of response.chunks) ctx.output.bytes(chunk);
      return response;
    } catch (err) {
      const response = (err as { response?: Parameters<typeof show>[0] }).response;
      if (!response) throw err;
      show(response);
      throw err;
    }
  };
  if (!opts.paginate) {
    await send(request);
    return;
  }
  // As gh api --paginate: each page's body as it comes, following whatever paging the service speaks.
  let current: PageRequest = { path: rawPath, query };
  const asked = new Set([requestKey(current)]);
  for (;;) {
    const response = await send({ ...request, path: current.path, query: current.query });
    const next = nextPage(client.baseUrl, current, {
      headers: response.headers,
      body: response.body,
      page: toPage(response.body),
    });
    if (next.kind === 'foreign')
      return ctx.warn(`the next page is at another address (${sanitizeField(next.url)}); not followed`);
    if (next.kind !== 'next') return;
    const key = requestKey(next.request);
    if (asked.has(key)) return ctx.warn('the service gave the same next page twice; paging stopped');
    asked.add(key);
    current = next.request;
  }
}
