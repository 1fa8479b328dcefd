#!/usr/bin/env node
// A streamed reply drawn as Markdown (src/chat/markdown-stream.ts): the cost of each piece, for
// a 2,000-word reply of headings, paragraphs, lists, code blocks and tables arriving in pieces of
// 5 characters, drawn to a terminal of 100 x 40 that discards what it is sent. Part of
// `npm run bench`; `node bench/stream-render.js` (after `npm run build`) runs it alone.
// Budget: at most 1 ms per piece on average, no piece over 16 ms (one frame).
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const load = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);

const WORDS =
  'the service keeps each thread and its messages while the assistant answers from the documents of a workspace with citations to the files it used when a reply is streamed every piece is shown as it arrives'.split(
    ' ',
  );

/** Words as people count them: not the Markdown's markers, pipes and dashes. */
const countWords = (text) => text.split(/\s+/).filter((w) => /\w/.test(w)).length;

/** A reply of `count` words as an assistant writes one: sections of prose, lists, code and tables. */
export function longReply(count = 2000) {
  let seed = 7;
  const word = () => WORDS[(seed = (seed * 48271) % 2147483647) % WORDS.length];
  const words = (n) => Array.from({ length: n }, word).join(' ');
  const parts = [];
  const counted = () => countWords(parts.join('\n\n'));
  for (let section = 1; counted() < count; section++) {
    parts.push(`## Section ${section}: ${words(3)}`);
    parts.push(
      `${words(30)} **${words(2)}** ${words(20)} \`kb threads ${word()}\` ${words(15)} [the guide](https://example.com/${section}) ${words(10)}.`,
    );
    parts.push(Array.from({ length: 5 }, () => `- ${words(8)} *${word()}*`).join('\n'));
    if (section % 2)
      parts.push(
        `\`\`\`js\n${Array.from({ length: 8 }, (_, i) => `const ${word()}${i} = await client.${word()}('${word()}'); // ${words(3)}`).join('\n')}\n\`\`\``,
      );
    if (section % 3 === 0) {
      parts.push(
        `| Plan | Seats | Notes |\n|------|-------|-------|\n${Array.from({ length: 5 }, (_, i) => `| ${word()} | ${i * 5} | ${words(4)} |`).join('\n')}`,
      );
    }
    parts.push(words(40) + '.');
  }
  return parts.join('\n\n');
}

export async function streamRenderCost({ pieceSize = 5, runs = 3 } = {}) {
  const { createRenderer } = await load('chat/render.js');
  const { MarkdownStream } = await load('chat/markdown-stream.js');
  const reply = longReply();
  const renderer = await createRenderer({ width: () => 100, raw: false, color: true });
  const screen = { write: () => {}, columns: () => 100, rows: () => 40 };
  const pieces = [];
  for (let at = 0; at < reply.length; at += pieceSize) pieces.push(reply.slice(at, at + pieceSize));
  // Wall time, and the CPU time kb spent (on a shared machine, wall time also counts the
  // moments another process had the CPU). The first run is a chat's first reply (highlight.js
  // and cli-table3 used for the first time, V8 not warmed up); the others are measured.
  const wall = [];
  const cpu = [];
  let firstReplyMaxMs = 0;
  const time = (run, action) => {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    action();
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpuBefore);
    const cpuMs = (used.user + used.system) / 1000;
    if (run === 0) firstReplyMaxMs = Math.max(firstReplyMaxMs, cpuMs);
    else {
      wall.push(ms);
      cpu.push(cpuMs);
    }
  };
  for (let run = 0; run <= runs; run++) {
    const stream = new MarkdownStream(renderer, screen);
    for (const piece of pieces) time(run, () => stream.push(piece));
    time(run, () => stream.end());
  }
  const round = (n) => Math.round(n * 1000) / 1000;
  const mean = (values) => round(values.reduce((a, b) => a + b, 0) / values.length);
  const p99 = (values) => round([...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)]);
  const result = {
    words: countWords(reply),
    pieces: pieces.length,
    pieceSize,
    meanMs: mean(wall),
    p99Ms: p99(wall),
    maxMs: round(Math.max(...wall)),
    cpuMeanMs: mean(cpu),
    cpuMaxMs: round(Math.max(...cpu)),
    firstReplyCpuMaxMs: round(firstReplyMaxMs),
  };
  return { ...result, ok: result.meanMs <= 1 && result.cpuMaxMs <= 16 };
}

export const streamRenderLine = (r) =>
  `Streamed Markdown: a ${r.words}-word reply in ${r.pieces} pieces of ${r.pieceSize} characters: ${r.meanMs} ms per piece on average (p99 ${r.p99Ms} ms, wall-clock max ${r.maxMs} ms), CPU ${r.cpuMeanMs} ms on average, at most ${r.cpuMaxMs} ms (${r.firstReplyCpuMaxMs} ms in a chat's first reply); budget <= 1 ms on average, none over 16 ms: ${r.ok ? 'ok' : 'MISSED'}`;

if (process.argv[1] === fileURLToPath(import.meta.url))
  console.log(streamRenderLine(await streamRenderCost()));
