import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKb, runKbOnTTY, tempDir } from '../helpers/cli.js';
import { hostileServer } from '../helpers/hostile.js';
import { demoServerForFile, startTestServer } from '../helpers/server.js';
import { startServeProcess } from '../helpers/serve-process.js';
import { itWith } from '../helpers/tools.js';

const demo = demoServerForFile();

describe('errors name their subject', () => {
  it('kb files wait names the file that does not exist', async () => {
    const known = (await runKb(['files', 'list', '--ids'], { env: demo.env })).stdout.trim().split('\n')[0]!;
    const res = await runKb(['files', 'wait', known, 'file_nope'], { env: demo.env });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/^error: file file_nope not found/);
    // and where the ids there are can be seen
    expect(res.stderr).toContain('hint: `kb files list` shows the files there are');
  });

  it('a thread that does not exist: exit 3 and a hint naming the list to look in', async () => {
    const res = await runKb(['threads', 'get', 'thr_nope'], { env: demo.env });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(
      /^error: thread thr_nope not found.*\nhint: `kb threads list` shows the threads there are\n$/s,
    );
  });

  it('a message sent with --stream to a thread that does not exist names it, as without (exit 3)', async () => {
    for (const stream of [[], ['--stream']]) {
      const res = await runKb(['threads', 'send', 'thr_nope', 'hi', ...stream], { env: demo.env });
      expect([stream, res.code, res.stdout]).toEqual([stream, 3, '']);
      expect(res.stderr).toMatch(/^error: thread thr_nope not found \(request req_\w+\)\nhint: /);
    }
  });

  it('kb files delete of ids that do not exist: each line with its request id, the summary with a hint (exit 3)', async () => {
    for (const noun of ['files', 'webhooks']) {
      const res = await runKb([noun, 'delete', 'id_nope', '--yes'], { env: demo.env });
      expect([noun, res.code, res.stdout]).toEqual([noun, 3, '']);
      expect(res.stderr).toMatch(
        new RegExp(
          `^✗ ${noun.slice(0, -1)} id_nope not found \\(request req_\\w+\\)\\n` +
            `error: 1 of 1 not deleted\\nhint: \`kb ${noun} list\` shows the ${noun} there are\\n$`,
        ),
      );
    }
  });

  it('one message for a file the user named that is missing, a folder or too large (exit 2)', async () => {
    const dir = tempDir();
    const big = join(dir, 'big.txt');
    writeFileSync(big, 'x'.repeat(65 * 1024));
    mkdirSync(join(dir, 'folder'));
    const sign = (file: string) =>
      runKb(['webhooks', 'sign', '--secret-file', file, '--payload-file', big], { env: demo.env });
    const cases: [string, RegExp][] = [
      [join(dir, 'nope'), /: no such file or folder$/],
      [join(dir, 'folder'), /: it is a folder$/],
      [big, /: 66560 bytes, more than the 64 KiB allowed$/],
    ];
    for (const [file, why] of cases) {
      const res = await sign(file);
      expect(res.code).toBe(2);
      const line = res.stderr.split('\n')[0]!;
      expect(line.startsWith(`error: cannot read secret file ${file}`)).toBe(true);
      expect(line).toMatch(why);
      expect(res.stderr).not.toMatch(/ENOENT|EISDIR/);
    }
  });

  it('--profile naming no profile is a usage error naming it, not "no service URL"', async () => {
    const res = await runKb(['--profile', 'nosuch', 'threads', 'list']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: no profile named "nosuch"\n/);
  });

  it('a profile named that does not exist is refused when the key and URL come from the environment too', async () => {
    for (const [args, env] of [
      [['--profile', 'nosuch'], {}],
      [['-p', 'nosuch'], {}],
      [[], { KB_PROFILE: 'nosuch' }],
    ] as const) {
      const res = await runKb([...args, 'threads', 'list'], { env: { ...demo.env, ...env } });
      expect([args.join(' '), res.code, res.stdout]).toEqual([args.join(' '), 2, '']);
      expect(res.stderr).toBe(
        'error: no profile named "nosuch"\nhint: log in first: kb auth login --profile NAME\n',
      );
    }
    const status = await runKb(['auth', 'status', '--profile', 'nosuch'], { env: demo.env });
    expect([status.code, status.stderr.split('\n')[0]]).toEqual([2, 'error: no profile named "nosuch"']);
  });

  it('a redirect says where it points, and that kb does not follow it', async () => {
    const redirecting = await hostileServer({
      'GET /v1/threads': (_req, res) =>
        res.writeHead(302, { location: 'https://elsewhere.example/v1/threads' }).end(),
    });
    try {
      const res = await runKb(['threads', 'list', '--retries', '0'], {
        env: { KB_BASE_URL: redirecting.url, KB_API_KEY: 'kb_redirect' },
      });
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(
        /302 from GET \/v1\/threads, redirected to https:\/\/elsewhere\.example\/v1\/threads/,
      );
      expect(res.stderr).toMatch(/hint: kb does not follow redirects/);
    } finally {
      await redirecting.close();
    }
  });

  it('a response over 64 MiB gets no "is the service running?" hint', async () => {
    const huge = await hostileServer({
      'GET /v1/threads': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const more = () => {
          while (sent < 66 && res.write(chunk)) sent++;
          if (sent < 66) res.once('drain', more);
          else res.end();
        };
        more();
      },
    });
    try {
      const res = await runKb(['threads', 'list', '--retries', '0'], {
        env: { KB_BASE_URL: huge.url, KB_API_KEY: 'kb_huge' },
      });
      expect(res.stderr).toMatch(/larger than 64 MiB/);
      expect(res.stderr).not.toMatch(/is the service running/);
      expect(res.stderr).toMatch(/hint: ask for less/);
    } finally {
      await huge.close();
    }
  });

  it('a message to a CLOSED thread says what to do instead', async () => {
    const closed = [...demo.server.service.store.threads.values()].find((t) => t.status === 'CLOSED')!;
    const res = await runKb(['threads', 'send', closed.id, 'hello'], { env: demo.env });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/only OPEN threads accept messages/);
    expect(res.stderr).toMatch(/hint: start a new thread \(`kb threads create`\), or reopen this one/);
  });

  it('an http:// receiver refused by kb serve points at --allow-local-webhooks', async () => {
    const res = await runKb(
      ['webhooks', 'create', '--url', 'http://127.0.0.1:9999/hook', '--event', 'file.indexed'],
      {
        env: demo.env,
      },
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      /hint: a local kb serve accepts http:\/\/ loopback receivers only when started with --allow-local-webhooks/,
    );
  });

  it('with format json in the config, an error on a terminal is still one to read, with its hint', async () => {
    const dir = tempDir();
    expect((await runKb(['config', 'set', 'format', 'json'], { configDir: dir })).code).toBe(0);
    const onTerminal = await runKbOnTTY(['threads', 'get', 'thr_nope'], { env: demo.env, configDir: dir });
    expect(onTerminal.code).toBe(3);
    const screen = onTerminal.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(screen).toMatch(/error: thread thr_nope not found/);
    expect(screen).not.toMatch(/"error":/);
    const piped = await runKb(['threads', 'get', 'thr_nope'], { env: demo.env, configDir: dir });
    expect(JSON.parse(piped.stderr).error.code).toBe('not_found');
  });
});

describe('a service that is not running', () => {
  it("with --json, the error code is the word connection_refused, not Node's ECONNREFUSED (exit 5)", async () => {
    const stopped = await startTestServer();
    await stopped.close();
    const res = await runKb(['threads', 'list', '--json', '--retries', '0'], {
      env: { KB_BASE_URL: stopped.url, KB_API_KEY: 'kb_x' },
    });
    expect([res.code, res.stdout]).toEqual([5, '']);
    expect(JSON.parse(res.stderr).error).toMatchObject({ code: 'connection_refused', exitCode: 5 });
  });
});

describe('servers stopped by Ctrl-C', () => {
  it('kb serve exits 130, as the exit-code table says, with nothing more on stderr', async () => {
    const dir = tempDir();
    const serve = await startServeProcess(dir, ['--index-delay', '0'], {
      KB_SERVE_API_KEYS: 'default:kb_stop',
    });
    const exited = new Promise<number | null>((resolve) => serve.child.on('exit', resolve));
    serve.child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(serve.stderr()).toBe('');
  });

  it('kb serve stopped by SIGTERM (kill, a service manager) exits 143, as shells report TERM, not 130', async () => {
    const dir = tempDir();
    const serve = await startServeProcess(dir, ['--index-delay', '0'], {
      KB_SERVE_API_KEYS: 'default:kb_stop',
    });
    const exited = new Promise<number | null>((resolve) => serve.child.on('exit', resolve));
    serve.child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(serve.stderr()).toBe('');
  });
});

describe('a base URL that is not the service', () => {
  it('says the URL does not look like the kb service, and how to change it (exit 5)', async () => {
    // A plain static server, as `python3 -m http.server` answers: an HTML page for 404 and 501.
    const page =
      (status: number, message: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
        res.writeHead(status, { 'content-type': 'text/html;charset=utf-8' });
        res.end(
          `<!DOCTYPE HTML>\n<html><head><title>Error response</title></head><body><h1>Error response</h1><p>Error code: ${status}</p><p>Message: ${message}.</p></body></html>\n`,
        );
      };
    const site = await hostileServer({
      'GET /v1/threads': page(404, 'File not found'),
      'GET /v1/threads/thr_1': page(404, 'File not found'),
      'POST /v1/threads': page(501, 'Unsupported method'),
      'GET /v1/users': page(405, 'Method Not Allowed'),
    });
    try {
      for (const args of [
        ['threads', 'list'],
        ['threads', 'get', 'thr_1'],
        ['threads', 'create'],
        ['users', 'list'],
      ]) {
        const res = await runKb(args, {
          env: { KB_BASE_URL: site.url, KB_API_KEY: 'kb_static', KB_RETRIES: '0' },
        });
        const [line, hint, ...rest] = res.stderr.split('\n');
        expect([args.join(' '), res.code]).toEqual([args.join(' '), 5]);
        expect(line).toMatch(
          new RegExp(
            `^error: ${site.url} does not look like the kb service \\(\\w+ /v1/\\S+ answered (404|405|501) text/html\\)$`,
          ),
        );
        expect(hint).toBe(
          "hint: set the service's URL with --base-url, KB_BASE_URL or `kb auth login --base-url URL`",
        );
        expect(rest.join('')).toBe('');
      }
    } finally {
      await site.close();
    }
  });

  it('says so for a 404 with an empty body too, typed or not (exit 5)', async () => {
    const empty = (type?: string) => (_req: unknown, res: import('node:http').ServerResponse) =>
      res.writeHead(404, type ? { 'content-type': type } : {}).end();
    const site = await hostileServer({
      'GET /v1/threads': empty(),
      'GET /v1/users': empty('application/json'),
    });
    try {
      for (const [args, path] of [
        [['threads', 'list'], '/v1/threads'],
        [['users', 'list'], '/v1/users'],
      ] as const) {
        const res = await runKb([...args], {
          env: { KB_BASE_URL: site.url, KB_API_KEY: 'kb_empty', KB_RETRIES: '0' },
        });
        expect([args.join(' '), res.code, res.stderr.split('\n')[0]]).toEqual([
          args.join(' '),
          5,
          `error: ${site.url} does not look like the kb service (GET ${path} answered 404 with an empty body)`,
        ]);
      }
    } finally {
      await site.close();
    }
  });
});

describe('an https base URL whose certificate is not trusted', () => {
  itWith('openssl')('names the certificate problem and how to trust it, at once (exit 5)', async () => {
    const dir = tempDir();
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    const made = spawnSync('openssl', [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost'],
      ...['-addext', 'subjectAltName=DNS:localhost', '-keyout', key, '-out', cert],
    ]);
    expect(made.status).toBe(0);
    const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'),
    ).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const run = (host: string, env: Record<string, string> = {}) =>
      runKb(['threads', 'list', '--debug'], {
        env: { KB_BASE_URL: `https://${host}:${port}`, KB_API_KEY: 'kb_tls', ...env },
      });
    const lines = (stderr: string) => stderr.split('\n').filter((l) => !l.startsWith('[debug]'));
    try {
      const selfSigned = await run('127.0.0.1');
      expect(selfSigned.code).toBe(5);
      expect(lines(selfSigned.stderr)).toEqual([
        `error: the TLS certificate of 127.0.0.1:${port} is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)`,
        "hint: trust it with NODE_EXTRA_CA_CERTS=FILE (the service's CA or certificate, PEM), or give the service one from a trusted authority",
        '',
      ]);
      // Once: a certificate is no better a second later.
      expect(selfSigned.stderr.match(/\[debug\] --> GET/g)).toHaveLength(1);
      // Trusted, but issued for localhost, not the address.
      const wrongHost = await run('127.0.0.1', { NODE_EXTRA_CA_CERTS: cert });
      expect(wrongHost.code).toBe(5);
      expect(lines(wrongHost.stderr)).toEqual([
        `error: the TLS certificate of 127.0.0.1:${port} is not issued for 127.0.0.1 (ERR_TLS_CERT_ALTNAME_INVALID)`,
        'hint: use a base URL with a host name the certificate names (`kb auth status` shows the URL), or a certificate for this one',
        '',
      ]);
      // The hints are what works.
      const trusted = await run('localhost', { NODE_EXTRA_CA_CERTS: cert });
      expect([trusted.code, lines(trusted.stderr)]).toEqual([0, ['']]);
    } finally {
      server.close();
    }
  });
});
