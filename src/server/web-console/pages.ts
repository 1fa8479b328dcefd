import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { sourcesLine } from '../answer/assistant.js';
import { formatBytes } from '../ingest/document-file.js';
import type { FileRecord, MessageRecord, ThreadRecord } from '../state/model.js';
import type { ListWindow } from './list-window.js';
import type { Notice } from './sessions.js';

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** Every page: the same head, header and landmarks. Strings are escaped by `html`. */
export function layout(
  title: string,
  body: Html,
  options: { workspace?: string; csrf?: string; current?: 'files' | 'threads' } = {},
): Html {
  const nav = options.workspace
    ? html`<nav aria-label="Console">
        <a href="/" ${options.current === 'files' ? html`aria-current="page"` : ''}>Files</a>
        <a href="/console/threads" ${options.current === 'threads' ? html`aria-current="page"` : ''}
          >Threads</a
        >
        <form method="post" action="/console/session/end">
          <input type="hidden" name="csrf" value="${options.csrf}" />
          <button type="submit" class="link">Sign out</button>
        </form>
      </nav>`
    : '';
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        ${options.csrf ? html`<meta name="csrf-token" content="${options.csrf}" />` : ''}
        <title>${title} · kb serve</title>
        <link rel="stylesheet" href="/console/app.css" />
        <script src="/console/app.js" defer></script>
      </head>
      <body>
        <header>
          <p class="brand">kb serve${options.workspace ? html` · <bdi>${options.workspace}</bdi>` : ''}</p>
          ${nav}
        </header>
        <main id="main">${body}</main>
      </body>
    </html>`;
}

export function signInPage(problem?: string): Html {
  return layout(
    'Sign in',
    html`<h1>Sign in</h1>
      <p>Sign in with a workspace API key: the one <code>kb serve</code> printed when it started.</p>
      ${problem ? html`<p class="problem" role="alert">${problem}</p>` : ''}
      <form method="post" action="/console/session" class="stack">
        <label for="key">API key</label>
        <input id="key" name="key" type="password" autocomplete="current-password" required autofocus />
        <button type="submit">Sign in</button>
      </form>`,
  );
}

const status = (f: FileRecord) =>
  html`<span class="status status-${f.indexingStatus.toLowerCase()}">${f.indexingStatus}</span>`;

function fileRow(f: FileRecord): Html {
  return html`<tr data-id="${f.id}">
    <td class="name"><bdi>${f.originalFilename}</bdi></td>
    <td>${status(f)}</td>
    <td class="size">${formatBytes(f.fileSize)}</td>
    <td class="reason">${f.indexingError ? `${f.indexingError.code}: ${f.indexingError.message}` : ''}</td>
    <td><a href="/console/files/${f.id}/delete" aria-label="Delete ${f.originalFilename}">Delete</a></td>
  </tr>`;
}

/** What a page of a list shows: all of it, or which part (the script says the same: assets.ts). */
export function countLine(window: ListWindow<unknown>, noun: string): string {
  const { start, total, records } = window;
  if (start === 0 && records.length === total) return `${total} ${noun}${total === 1 ? '' : 's'}`;
  const Noun = noun[0]!.toUpperCase() + noun.slice(1);
  return `${Noun}s ${start + 1}–${start + records.length} of ${total}, newest first`;
}

/** Links to the newer and older pages of a list; the files page's script keeps them current. */
function pager(window: ListWindow<unknown>, path: string, noun: string): Html {
  const newer = window.newer ? `${path}?before=${window.newer}` : '';
  const older = window.older ? `${path}?after=${window.older}` : '';
  return html`<nav class="pager" aria-label="Pages of ${noun}s" ${newer || older ? '' : html`hidden`}>
    <a id="newer" rel="prev" href="${newer}" ${newer ? '' : html`hidden`}>← Newer ${noun}s</a>
    <a id="older" rel="next" href="${older}" ${older ? '' : html`hidden`}>Older ${noun}s →</a>
  </nav>`;
}

export function filesPage(
  files: ListWindow<FileRecord>,
  options: { workspace: string; csrf: string; maxFileBytes: number; notice?: Notice },
): Html {
  return layout(
    'Files',
    html`<h1>Files</h1>
      ${
        options.notice
          ? html`<p class="notice" role="status">Deleted <bdi>${options.notice.deleted}</bdi>.</p>`
          : ''
      }
      <section aria-labelledby="upload-heading" class="upload">
        <h2 id="upload-heading">Upload</h2>
        <div id="drop" class="drop" data-max-bytes="${options.maxFileBytes}">
          <p>Drop files here, or</p>
          <label for="files" class="button">Choose files</label>
          <input id="files" type="file" multiple />
          <p class="hint">
            PDF (scans too), Word (.docx), HTML, Markdown, CSV, TSV, JSON, images, text of any name (README,
            .log, .yaml), each also as .gz, up to ${formatBytes(options.maxFileBytes)} each.
          </p>
        </div>
        <ul id="uploads" class="uploads" aria-live="polite"></ul>
      </section>
      <section aria-labelledby="files-heading">
        <h2 id="files-heading">In this workspace</h2>
        <p id="count" class="hint" aria-live="polite">${countLine(files, 'file')}</p>
        <div class="scroll">
          <table id="file-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Size</th>
                <th scope="col">Failure</th>
                <th scope="col"><span class="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              ${files.records.map(fileRow)}
            </tbody>
          </table>
        </div>
        ${pager(files, '/', 'file')}
      </section>`,
    { workspace: options.workspace, csrf: options.csrf, current: 'files' },
  );
}

export function deletePage(file: FileRecord, options: { workspace: string; csrf: string }): Html {
  return layout(
    `Delete ${file.originalFilename}`,
    html`<h1>Delete <bdi>${file.originalFilename}</bdi>?</h1>
      <p>It leaves the search index at once; answers will no longer cite it. This cannot be undone.</p>
      <form method="post" action="/console/files/${file.id}/delete" class="row">
        <input type="hidden" name="csrf" value="${options.csrf}" />
        <button type="submit" class="danger">Delete</button>
        <a href="/">Cancel</a>
      </form>`,
    { ...options, current: 'files' },
  );
}

export function threadsPage(
  threads: ListWindow<{ thread: ThreadRecord; messages: number }>,
  options: { workspace: string; csrf: string },
): Html {
  return layout(
    'Threads',
    html`<h1>Threads</h1>
      <p class="hint">Read-only: chat with <code>kb chat</code>.</p>
      ${
        threads.total === 0
          ? html`<p>No threads yet.</p>`
          : html`<p class="hint">${countLine(threads, 'thread')}</p>
              <ul class="threads">
                ${threads.records.map(
                  ({ thread, messages }) =>
                    html`<li>
                      <a href="/console/threads/${thread.id}"
                        ><bdi>${thread.title || 'Untitled thread'}</bdi></a
                      >
                      <span class="hint"
                        >${thread.status} · ${messages} message${messages === 1 ? '' : 's'} ·
                        <time datetime="${thread.createdAt}">${thread.createdAt}</time></span
                      >
                    </li>`,
                )}
              </ul>
              ${pager(threads, '/console/threads', 'thread')}`
      }`,
    { ...options, current: 'threads' },
  );
}

export function threadPage(
  thread: ThreadRecord,
  messages: MessageRecord[],
  options: { workspace: string; csrf: string },
): Html {
  return layout(
    thread.title || 'Untitled thread',
    html`<p><a href="/console/threads">← Threads</a></p>
      <h1><bdi>${thread.title || 'Untitled thread'}</bdi></h1>
      <p class="hint">
        ${thread.id} · ${thread.status} · created
        <time datetime="${thread.createdAt}">${thread.createdAt}</time>
      </p>
      ${messages.length === 0 ? html`<p>No messages yet.</p>` : ''}
      <ol class="transcript">
        ${messages.map(
          (m) =>
            html`<li class="message ${m.role}">
              <p class="role">
                ${m.role === 'user' ? 'You' : 'Assistant'}
                <time datetime="${m.createdAt}">${m.createdAt}</time>
              </p>
              <div class="content" dir="auto">${withoutSourcesLine(m)}</div>
              ${
                m.pending
                  ? html`<p class="mark">[reply still being written]</p>`
                  : m.incomplete
                    ? html`<p class="mark">[reply stopped]</p>`
                    : ''
              }
              ${
                m.sources?.length
                  ? html`<p class="sources">
                      Sources: ${m.sources.map((s, i) => html`${i ? ', ' : ''}<bdi>${s}</bdi>`)}
                    </p>`
                  : ''
              }
            </li>`,
        )}
      </ol>`,
    { ...options, current: 'threads' },
  );
}

/** A reply's text without the sources line it ends with: the page lists the sources itself. */
function withoutSourcesLine(m: MessageRecord): string {
  const line = m.sources?.length ? sourcesLine(m.sources) : '';
  return line && m.content.endsWith(line) ? m.content.slice(0, -line.length) : m.content;
}

export function notFoundPage(what: string, options: { workspace: string; csrf: string }): Html {
  return layout(
    'Not found',
    html`<h1>Not found</h1>
      <p>${what}</p>
      <p><a href="/">Files</a></p>`,
    options,
  );
}
