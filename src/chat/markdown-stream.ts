import { sanitizeText } from '../util/sanitize.js';
import { LiveRegion, type RegionScreen } from './live-region.js';
import { previewSource, splitBlocks, withoutTableToBe } from './markdown-blocks.js';
import type { Block, BlockMarkdown, LinkDefinitions, Renderer } from './render.js';

export type StreamScreen = Omit<RegionScreen, 'rowsOf'>;

const lines = (text: string): string[] => (text ? text.split('\n') : []);

/**
 * A reply drawn as Markdown while it arrives. Each block is written once it is complete (see
 * splitBlocks), exactly as the reply rendered whole draws it, at the terminal's width then; the
 * block still arriving is shown rendered below it in a live region (live-region.ts), the only
 * lines ever redrawn. When end() closes the last block, the screen holds what render() gives
 * for the whole reply. Until the Markdown renderer has loaded, the text is shown as the
 * renderer's fallback shows it, all of it in the live region.
 */
export class MarkdownStream {
  /** The text not yet written as final, sanitised as it arrives. */
  #open = '';
  /** The link reference definitions in the text written as final: references after them resolve to them. */
  readonly #links: LinkDefinitions = {};
  /** Blank lines due between the last block written and the next one. */
  #owed = 0;
  /** The last preview drawn, and what it was drawn from. */
  #shown: { source: string; width: number; lines: string[] } | undefined;
  readonly #region: LiveRegion;

  constructor(
    private readonly renderer: Renderer,
    private readonly screen: StreamScreen,
  ) {
    this.#region = new LiveRegion({
      ...screen,
      rowsOf: (line, columns) =>
        renderer.markdown?.()?.rows(line, columns) ??
        Math.max(1, Math.ceil(line.length / Math.max(1, columns))),
    });
  }

  /** Draws the next piece of the reply. */
  push(text: string): void {
    this.#open += sanitizeText(text);
    this.#draw(false);
  }

  /**
   * The reply has ended (or was stopped): its last block is closed and written. `echoed`: it was
   * stopped by Ctrl-C, which a terminal not in raw mode echoes (^C) where the cursor is.
   */
  end(options: { echoed?: boolean } = {}): void {
    if (options.echoed) this.#region.overwritten();
    this.#draw(true);
  }

  #draw(ended: boolean): void {
    const markdown = this.renderer.markdown?.();
    let final: string[] = [];
    let open = markdown?.blocks(this.#open, this.#links);
    if (markdown && open) {
      const split = splitBlocks(open, ended, new Set(Object.keys(this.#links)));
      for (const block of split.done)
        if (block.type === 'def' && block.tag && !(block.tag in this.#links))
          this.#links[block.tag] = { href: block.href ?? '', title: block.title };
      if (split.done.length) {
        final = this.#written(markdown.draw(split.done));
        this.#open = this.#open.slice(split.length);
        open = split.open;
      }
    } else if (ended) final = this.#written(this.renderer.render(this.#open));
    if (ended) this.#open = '';
    const preview = ended ? [] : this.#preview(markdown, open);
    this.#region.update(final, preview.length ? [...Array<string>(this.#owed).fill(''), ...preview] : []);
  }

  /** The lines of blocks drawn as final, after the blank lines owed; notes those they owe. */
  #written(drawn: string): string[] {
    const content = drawn.trimEnd();
    if (!content) {
      // Blocks drawn as blank lines only (an empty fenced block): owed, as the whole reply has them.
      this.#owed += drawn.split('\n').length - 1;
      return [];
    }
    const owed = this.#owed;
    this.#owed = Math.max(0, drawn.slice(content.length).split('\n').length - 2);
    return [...Array<string>(owed).fill(''), ...lines(content)];
  }

  /** The block still arriving, as it may be shown (previewSource); drawn again only when that changes. */
  #preview(markdown: BlockMarkdown | undefined, blocks: Block[] | undefined): string[] {
    const first = blocks?.find((b) => b.type !== 'space')?.type;
    const source = previewSource(this.#open, first === 'code' || first === 'table' ? first : 'text');
    const width = markdown ? this.screen.columns() : -1;
    if (this.#shown?.source === source && this.#shown.width === width) return this.#shown.lines;
    let shown: string[] = [];
    if (source.trim() && !markdown) shown = lines(this.renderer.render(source).trimEnd());
    else if (source.trim() && markdown) {
      const drawn = withoutTableToBe(
        source === this.#open && blocks ? blocks : markdown.blocks(source, this.#links),
      );
      shown = drawn.length ? lines(markdown.draw(drawn).trimEnd()) : [];
    }
    this.#shown = { source, width, lines: shown };
    return shown;
  }
}
