import chalk from 'chalk';
import { describe, expect, it, vi } from 'vitest';
import { previewSource, splitBlocks, withoutTableToBe } from '../../src/chat/markdown-blocks.js';
import { MarkdownStream } from '../../src/chat/markdown-stream.js';
import { createRenderer, deferredRenderer, plainRenderer, type Renderer } from '../../src/chat/render.js';
import { REPLY } from '../helpers/markdown-reply.js';

/**
 * A terminal as far as a live region drives it: text, CR, LF, cursor up, clear to the end of the
 * screen. Lines are as written (escape codes kept, no wrapping: nothing drawn is wider than
 * `columns`). Moving above the screen's first row fails the test: those rows scrolled away.
 */
function terminal(columns: number, rows: number) {
  const lines = [''];
  let row = 0;
  let col = 0;
  let highest = Infinity;
  const write = (text: string) => {
    for (const [part] of text.matchAll(
      /\u001b\[(\d*)A|\u001b\[J|\r|\n|(?:[^\r\n\u001b]|\u001b(?!\[\d*A|\[J))+/g,
    )) {
      if (part === '\r') col = 0;
      else if (part === '\n') {
        row++;
        col = 0;
        if (row === lines.length) lines.push('');
      } else if (part === '\u001b[J') {
        lines[row] = lines[row]!.slice(0, col);
        lines.length = row + 1;
      } else if (/^\u001b\[\d*A$/.test(part)) {
        row -= Number(part.slice(2, -1) || 1);
        if (row < lines.length - rows) throw new Error(`moved up to a row that scrolled away (${row})`);
      } else {
        if (col !== lines[row]!.length) throw new Error('wrote over a line instead of after it');
        lines[row] += part;
        col = lines[row]!.length;
      }
    }
    highest = Math.min(highest, row);
  };
  return { write, columns: () => columns, rows: () => rows, screen: () => lines.join('\n'), lines };
}

/** Deterministic pieces of 1-7 characters. */
function pieces(text: string, seed: number): string[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
  const out: string[] = [];
  for (let at = 0; at < text.length;) {
    const size = 1 + (next() % 7);
    out.push(text.slice(at, at + size));
    at += size;
  }
  return out;
}

const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

async function stream(
  text: string,
  options: { columns?: number; rows?: number; seed?: number; renderer?: Renderer } = {},
) {
  const { columns = 80, rows = 24, seed = 1 } = options;
  const renderer =
    options.renderer ?? (await createRenderer({ width: () => columns, raw: false, color: true }));
  const term = terminal(columns, rows);
  const md = new MarkdownStream(renderer, term);
  const screens: string[] = [];
  for (const piece of pieces(text, seed)) {
    md.push(piece);
    screens.push(term.screen());
  }
  return { renderer, term, md, screens };
}

describe('a reply drawn as Markdown while it arrives', () => {
  it('a code block in a language the highlighter lacks, or one still arriving, writes nothing to the console', async () => {
    const warned = vi.spyOn(console, 'error').mockImplementation(() => {});
    const logged = vi.spyOn(console, 'log').mockImplementation(() => {});
    // marked-terminal highlights code only when its chalk (this one) has colour.
    const level = chalk.level;
    chalk.level = 3;
    try {
      const renderer = await createRenderer({ width: () => 80, raw: false, color: true });
      const term = terminal(80, 24);
      const md = new MarkdownStream(renderer, term);
      for (const piece of ['```', 'p', 'yt', 'hon\nprint(1)\n```\n\n']) md.push(piece);
      md.end();
      expect(plain(renderer.render('```nosuchlang\nx = 1\n```\n'))).toBe('  x = 1\n');
      expect(plain(term.screen())).toBe('  print(1)\n');
      expect([...warned.mock.calls, ...logged.mock.calls]).toEqual([]);
    } finally {
      chalk.level = level;
      warned.mockRestore();
      logged.mockRestore();
    }
  });

  it('ends with the screen the whole reply renders to, whatever the pieces', async () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const { renderer, term, md } = await stream(REPLY, { seed });
      md.end();
      expect(term.screen()).toBe(renderer.render(REPLY));
    }
  });

  it('resolves reference-style links and images whose definition comes later, or came earlier', async () => {
    const texts = [
      'see [x][1]\n\n[1]: https://example.com\n\nafter',
      'a ![logo][img] and [docs][] here.\n\nmore text\n\n[img]: https://e.com/l.png "Logo"\n[docs]: https://e.com/docs\n\nend',
      '[1]: https://example.com/first\n\nsee [x][1] then\n\n[y][1] again\n\n[1]: https://example.com/second\n\ndone',
      'see [x][nowhere] with no definition\n\nafter',
    ];
    for (const text of texts)
      for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
        const { renderer, term, md, screens } = await stream(text, { seed, rows: 12 });
        md.end();
        expect(term.screen(), JSON.stringify([text, seed])).toBe(renderer.render(text));
        const final = term.lines;
        for (const screen of screens) {
          const above = screen.split('\n').slice(0, -11);
          expect(final.slice(0, above.length)).toEqual(above);
        }
      }
  });

  it('draws an empty fenced block as the whole reply does', async () => {
    for (const text of ['```\n```\n\nafter', 'before\n\n```\n```\n\nafter', '~~~js\n~~~\n\nafter'])
      for (const seed of [1, 2, 3, 4, 5]) {
        const { renderer, term, md } = await stream(text, { seed });
        md.end();
        expect(term.screen(), JSON.stringify([text, seed])).toBe(renderer.render(text));
      }
  });

  it('never shows a fence or ** while it arrives, and never changes a line once it is above the block arriving', async () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 11]) {
      const { term, md, screens } = await stream(REPLY, { seed, rows: 12 });
      md.end();
      const final = term.lines;
      for (const screen of screens) {
        expect(plain(screen)).not.toMatch(/```|\*\*/);
        // Every line above the live region (at most the screen less one row) is final.
        const above = screen.split('\n').slice(0, -11);
        expect(final.slice(0, above.length)).toEqual(above);
      }
    }
  });

  it('draws each block once complete as the whole reply does, and the open one rendered below it', async () => {
    const renderer = await createRenderer({ width: () => 80, raw: false, color: false });
    const term = terminal(80, 24);
    const md = new MarkdownStream(renderer, term);
    md.push('# Plans\n\nThe **Growth');
    expect(term.screen()).toBe('Plans\n\nThe Growth');
    md.push('** plan.\n\n```js\nconst a = 1;\n``');
    expect(term.screen()).toBe('Plans\n\nThe Growth plan.\n\n  const a = 1;');
    md.push('`\n');
    md.end();
    expect(term.screen()).toBe(
      renderer.render('# Plans\n\nThe **Growth** plan.\n\n```js\nconst a = 1;\n```\n'),
    );
  });

  it('shows the last rows of a block taller than the screen, and all of it once complete', async () => {
    const code = `Before.\n\n\`\`\`\n${Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n')}\n\`\`\`\n\nAfter.\n`;
    const beforeFence = code.lastIndexOf('```');
    const { renderer, term, md, screens } = await stream(code.slice(0, beforeFence), { rows: 10, seed: 9 });
    // Before., a blank line, then at most the 9 last rows of the code so far.
    expect(Math.max(...screens.map((s) => s.split('\n').length))).toBeLessThanOrEqual(11);
    expect(term.screen()).toMatch(/line 59$/);
    md.push(code.slice(beforeFence));
    md.end();
    expect(term.screen()).toBe(renderer.render(code));
  });

  it('stopped mid code block: what was drawn stays and the block is closed', async () => {
    const cut = REPLY.slice(0, REPLY.indexOf('console.log'));
    const { renderer, term, md } = await stream(cut, { seed: 4 });
    md.end();
    expect(term.screen()).toBe(renderer.render(cut));
    expect(plain(term.screen())).toMatch(/const plan = await kb\.plans\.get\('growth'\);\n$/);
  });

  it('shows the text plainly until the renderer loads, then goes on as Markdown', async () => {
    let release!: () => void;
    const loaded = new Promise<void>((r) => (release = r));
    const real = await createRenderer({ width: () => 80, raw: false, color: false });
    const renderer = deferredRenderer(
      async () => {
        await loaded;
        return real;
      },
      plainRenderer(() => 80),
    );
    void renderer.ready();
    const term = terminal(80, 24);
    const md = new MarkdownStream(renderer, term);
    const all = pieces(REPLY, 5);
    const half = all.length >> 1;
    for (const piece of all.slice(0, half)) md.push(piece);
    expect(term.screen()).toContain('Plans and limits');
    expect(term.screen()).not.toContain('**');
    release();
    await renderer.ready();
    for (const piece of all.slice(half)) md.push(piece);
    md.end();
    expect(term.screen()).toBe(real.render(REPLY));
  });

  it('wraps what is drawn after a resize at the new width', async () => {
    let columns = 80;
    const renderer = await createRenderer({ width: () => columns, raw: false, color: false });
    const term = { ...terminal(80, 24), columns: () => columns };
    const md = new MarkdownStream(renderer, term);
    const words = 'word '.repeat(30);
    md.push(`${words}\n\n`);
    md.push('Next');
    columns = 40;
    md.push(` ${words}`);
    md.end();
    const shown = term.screen().split('\n');
    expect(Math.max(...shown.slice(0, 2).map((l) => l.length))).toBeGreaterThan(40);
    expect(Math.max(...shown.slice(3).map((l) => l.length))).toBeLessThanOrEqual(40);
    expect(term.screen().endsWith(renderer.render(`Next ${words}`))).toBe(true);
  });
});

describe('splitBlocks', () => {
  const lex = async (text: string) =>
    (await createRenderer({ width: () => 80, raw: false, color: false })).markdown!()!.blocks(text);
  const done = async (text: string, ended = false) =>
    splitBlocks(await lex(text), ended)
      .done.map((b) => b.raw)
      .join('');

  it('closes a paragraph, table or quote at a blank line, a heading at its line end, a fence at its closing line', async () => {
    expect(await done('A paragraph\ngoes on')).toBe('');
    expect(await done('A paragraph.\n\n')).toBe('A paragraph.');
    expect(await done('# Title')).toBe('');
    expect(await done('# Title\n')).toBe('# Title\n');
    expect(await done('| a |\n|---|\n| 1 |\n')).toBe('');
    expect(await done('| a |\n|---|\n| 1 |\n\n')).toBe('| a |\n|---|\n| 1 |');
    expect(await done('```js\ncode\n``')).toBe('');
    expect(await done('```js\ncode\n```')).toBe('');
    expect(await done('```js\ncode\n```\n')).toBe('```js\ncode\n```\n');
    expect(await done('````\n```\n')).toBe('');
    expect(await done('> quoted\n\n')).toBe('> quoted');
  });

  it('keeps a list open until another block has a whole first line: `2` may still become `2.`', async () => {
    expect(await done('1. one\n\n')).toBe('');
    expect(await done('1. one\n\n2')).toBe('');
    expect(await done('1. one\n\n2. two\n')).toBe('');
    expect(await done('1. one\n\nAfter the list\n')).toBe('1. one');
    expect(await done('    indented\n\n')).toBe('');
    expect(await done('1. one', true)).toBe('1. one');
  });

  it('spans the text of the blocks it completes, and leaves the rest open', async () => {
    const text = '# A\n\nB para\n\n- c';
    const split = splitBlocks(await lex(text), false);
    expect(text.slice(0, split.length)).toBe('# A\n\nB para');
    expect(split.open.map((b) => b.raw).join('')).toBe('\n\n- c');
  });
});

describe('previewSource', () => {
  it("hides a line being written that has no letter yet (a table's, any), and closes inline code and ** left open", () => {
    expect(previewSource('Text\n``', 'text')).toBe('Text');
    expect(previewSource('```js\ncode\n``', 'code')).toBe('```js\ncode\n');
    expect(previewSource('| a |\n|---|\n| 1 |\n| 2', 'table')).toBe('| a |\n|---|\n| 1 |\n');
    expect(previewSource('Some `code', 'text')).toBe('Some `code`');
    expect(previewSource('Some **bold', 'text')).toBe('Some **bold**');
    expect(previewSource('Some **', 'text')).toBe('Some');
    expect(previewSource('Some *', 'text')).toBe('Some');
    expect(previewSource('`a` and **b** done', 'text')).toBe('`a` and **b** done');
  });

  it('leaves out a table still at its header row', async () => {
    const blocks = (await createRenderer({ width: () => 80, raw: false, color: false })).markdown!()!.blocks(
      'Intro\n\n| Plan | Price |\n',
    );
    expect(withoutTableToBe(blocks).map((b) => b.type)).toEqual(['paragraph', 'space']);
  });
});
