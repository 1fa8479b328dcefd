// The console's stylesheet and script, served as files so that the pages' Content-Security-Policy
// allows no inline code. Plain CSS and plain script: no build, no framework.

export const CONSOLE_CSS = `
:root { color-scheme: light dark; --fg: #1d1f23; --bg: #fff; --muted: #5b6270; --line: #d8dce3;
  --accent: #2454d6; --ok: #17723a; --bad: #b3261e; --warn: #8a5a00; font: 16px/1.5 system-ui, sans-serif; }
@media (prefers-color-scheme: dark) { :root { --fg: #e7e9ee; --bg: #15171b; --muted: #a3aab7; --line: #343944;
  --accent: #8fb0ff; --ok: #6fd08f; --bad: #ff8a80; --warn: #f3c266; } }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; justify-content: space-between;
  padding: .75rem 1rem; border-bottom: 1px solid var(--line); }
.brand { margin: 0; font-weight: 600; }
nav { display: flex; gap: 1rem; align-items: center; }
nav form { margin: 0; }
a { color: var(--accent); }
a[aria-current="page"] { font-weight: 600; text-decoration: none; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
.hint, time { color: var(--muted); font-size: .9rem; }
.stack { display: grid; gap: .5rem; max-width: 24rem; }
.row { display: flex; gap: 1rem; align-items: center; }
input[type=password] { font: inherit; padding: .5rem; border: 1px solid var(--line); border-radius: 6px;
  background: var(--bg); color: var(--fg); }
button, .button { font: inherit; padding: .45rem 1rem; border-radius: 6px; border: 1px solid var(--accent);
  background: var(--accent); color: var(--bg); cursor: pointer; display: inline-block; }
button.link { background: none; border: none; color: var(--accent); padding: 0; text-decoration: underline; }
button.danger { background: var(--bad); border-color: var(--bad); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.problem { color: var(--bad); font-weight: 600; }
.notice { color: var(--ok); }
.drop { border: 2px dashed var(--line); border-radius: 10px; padding: 1rem; text-align: center; }
.drop.over { border-color: var(--accent); }
.drop p { margin: .25rem 0; }
.visually-hidden, .drop input[type=file] { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }
.drop input[type=file]:focus-visible + .hint, .drop:focus-within .button { outline: 3px solid var(--accent); }
.uploads { list-style: none; padding: 0; display: grid; gap: .5rem; }
.uploads li { display: grid; grid-template-columns: 1fr auto; gap: .25rem 1rem; align-items: center; }
.uploads progress { grid-column: 1 / -1; width: 100%; }
.uploads .failed { color: var(--bad); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td.name { overflow-wrap: anywhere; }
td.size { white-space: nowrap; }
td.reason { color: var(--bad); font-size: .9rem; }
.status { font-weight: 600; font-size: .85rem; }
.status-completed { color: var(--ok); } .status-failed { color: var(--bad); }
.status-pending, .status-processing { color: var(--warn); }
.pager { justify-content: space-between; margin: .75rem 0; }
.threads { padding-left: 1.2rem; } .threads li { margin: .4rem 0; }
.transcript { list-style: none; padding: 0; }
.message { border-left: 3px solid var(--line); padding: .25rem 0 .25rem .75rem; margin: 0 0 1rem; }
.message.assistant { border-color: var(--accent); }
.role { margin: 0; font-weight: 600; }
.content { white-space: pre-wrap; overflow-wrap: anywhere; }
.mark, .sources { color: var(--muted); font-size: .9rem; margin: .25rem 0 0; }
@media (max-width: 30rem) { th:nth-child(3), td:nth-child(3) { display: none; } main { padding: .75rem; } }
`;

export const CONSOLE_JS = `'use strict';
(() => {
  const csrf = document.querySelector('meta[name="csrf-token"]')?.content;
  const drop = document.getElementById('drop');
  const table = document.querySelector('#file-table tbody');
  if (!drop || !table || !csrf) return;
  const input = document.getElementById('files');
  const list = document.getElementById('uploads');
  const maxBytes = Number(drop.dataset.maxBytes);
  const size = (n) => {
    const units = ['B', 'KiB', 'MiB', 'GiB'];
    let u = 0;
    while (n >= 1024 && u < units.length - 1) { n /= 1024; u++; }
    return (u ? n.toFixed(1).replace(/\\.0$/, '') : String(n)) + ' ' + units[u];
  };
  const el = (tag, attrs, text) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };

  // Uploads accepted and not yet indexed or failed: id -> the line that shows them.
  const tracking = new Map();
  const MAX_TRACKED = 100;
  function show(line, f) {
    if (!f) {
      line.state.textContent = 'deleted';
      return tracking.delete(line.id);
    }
    const status = f.indexingStatus;
    if (status === 'COMPLETED') line.state.textContent = 'indexed';
    else if (status === 'FAILED') {
      line.item.classList.add('failed');
      line.state.textContent = 'failed: ' + (f.indexingError ? f.indexingError.code + ': ' + f.indexingError.message : 'not indexed');
    } else line.state.textContent = 'uploaded: ' + status.toLowerCase();
    if (status === 'COMPLETED' || status === 'FAILED') tracking.delete(line.id);
  }

  function upload(file) {
    const item = el('li');
    const name = el('bdi', { class: 'name' }, file.name);
    const state = el('span', { class: 'state' }, 'waiting');
    const bar = el('progress', { max: '100', value: '0', 'aria-label': 'Uploading ' + file.name });
    item.append(name, state, bar);
    list.append(item);
    const fail = (message) => {
      state.textContent = message;
      item.classList.add('failed');
      bar.remove();
    };
    if (file.size > maxBytes) return fail('over the limit of ' + size(maxBytes) + ': not uploaded');
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/console/uploads?filename=' + encodeURIComponent(file.name));
    xhr.setRequestHeader('x-csrf-token', csrf);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable) return;
      const pct = Math.round((100 * e.loaded) / e.total);
      bar.value = pct;
      state.textContent = pct + '%';
    };
    xhr.onload = () => {
      let body;
      try { body = JSON.parse(xhr.responseText); } catch { body = undefined; }
      if (xhr.status === 201 && body && body.data) {
        bar.value = 100;
        item.dataset.id = body.data.id;
        const line = { id: body.data.id, item, state };
        tracking.set(line.id, line);
        show(line, body.data);
        refresh();
      } else fail((body && body.error && body.error.message) || 'the upload failed (' + xhr.status + ')');
    };
    xhr.onerror = () => fail('the upload failed: the connection was lost');
    xhr.send(file);
  }

  const send = (files) => { for (const file of files) upload(file); };
  input.addEventListener('change', () => { send(input.files); input.value = ''; });
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    if (e.dataTransfer) send(e.dataTransfer.files);
  });

  function row(f) {
    const tr = el('tr', { 'data-id': f.id });
    const status = el('span', { class: 'status status-' + f.indexingStatus.toLowerCase() }, f.indexingStatus);
    const del = el('a', { href: '/console/files/' + encodeURIComponent(f.id) + '/delete', 'aria-label': 'Delete ' + f.originalFilename }, 'Delete');
    const cells = [
      el('td', { class: 'name' }),
      el('td'),
      el('td', { class: 'size' }, size(f.fileSize)),
      el('td', { class: 'reason' }, f.indexingError ? f.indexingError.code + ': ' + f.indexingError.message : ''),
      el('td'),
    ];
    cells[0].append(el('bdi', {}, f.originalFilename));
    cells[1].append(status);
    cells[4].append(del);
    tr.append(...cells);
    return tr;
  }

  const shown = new URLSearchParams(location.search);
  function link(id, href) {
    const a = document.getElementById(id);
    if (!a) return;
    a.hidden = !href;
    a.setAttribute('href', href || '');
    a.parentElement.hidden = [...a.parentElement.children].every((c) => c.hidden);
  }

  let busy = false;
  async function refresh() {
    if (busy) return;
    busy = true;
    try {
      // The same window of files as the page's address asked for, and the uploads being tracked.
      const query = new URLSearchParams();
      for (const k of ['after', 'before']) if (shown.get(k)) query.set(k, shown.get(k));
      const asked = [...tracking.keys()].slice(0, MAX_TRACKED);
      if (asked.length) query.set('track', asked.join(','));
      const res = await fetch('/console/files.json?' + query, { headers: { accept: 'application/json' } });
      if (res.status === 401) return void location.assign('/');
      if (!res.ok) return;
      const { data, start, total, newer, older, tracked } = await res.json();
      const rows = data.map(row);
      const same = rows.length === table.rows.length &&
        rows.every((r, i) => r.outerHTML === table.rows[i].outerHTML);
      if (!same) table.replaceChildren(...rows);
      for (const id of asked) {
        const line = tracking.get(id);
        if (line) show(line, tracked.find((f) => f.id === id));
      }
      const count = document.getElementById('count');
      if (count) count.textContent = start === 0 && data.length === total
        ? total + (total === 1 ? ' file' : ' files')
        : 'Files ' + (start + 1) + '–' + (start + data.length) + ' of ' + total + ', newest first';
      link('newer', newer && '/?before=' + newer);
      link('older', older && '/?after=' + older);
    } catch {
      // the service is restarting: the next poll tries again
    } finally {
      busy = false;
    }
  }
  setInterval(refresh, 1000);
})();
`;
