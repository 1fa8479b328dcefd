/** The terminal a live region draws on: its size now, and how many rows a drawn line takes. */
export interface RegionScreen {
  write(text: string): void;
  columns(): number;
  rows(): number;
  rowsOf(line: string, columns: number): number;
}

/**
 * The last lines of a terminal's output while they may still change (the block of a reply still
 * arriving), with everything written above them final. It moves the cursor up over its own rows
 * only, and is never taller than the screen less one row, so every row it clears is still on
 * the screen: rows that scrolled away can never be redrawn, and it never needs to. A region too
 * tall for that shows its last rows; the rest appears when its lines are written as final.
 *
 * Between updates the cursor is at the end of the region's last line (at the start of a line
 * when it is empty). Lines drawn are never wider than the terminal was when they were drawn; if
 * it narrows, the region counts its rows as a terminal that re-wraps lines does.
 */
export class LiveRegion {
  #lines: string[] = [];
  #columns = 0;
  /** Something else was written at the cursor since the last update. */
  #overwritten = false;

  constructor(private readonly screen: RegionScreen) {}

  /**
   * Writes `final` lines where the region starts (they stay), then shows `live` below them.
   * Only what differs from what is on screen is written.
   */
  update(final: string[], live: string[]): void {
    const { screen } = this;
    const columns = screen.columns();
    const shown = this.#window(live, columns);
    const target = final.length ? [...final, ...shown] : shown;
    const old = this.#lines;
    const resized = columns !== this.#columns;
    let same = 0;
    if (!resized) while (same < old.length && same < target.length && old[same] === target[same]) same++;
    // What was written over the last line is drawn again with it.
    const overwritten = this.#overwritten;
    this.#overwritten = false;
    if (overwritten) same = Math.min(same, Math.max(0, old.length - 1));
    let out = '';
    if (same === old.length) {
      // What is on screen stays; the rest follows it.
      if (overwritten) out = '\r\u001b[K';
      if (same < target.length) out += `${old.length ? '\n' : ''}${target.slice(same).join('\n')}`;
    } else if (
      !overwritten &&
      same === old.length - 1 &&
      same < target.length &&
      target[same]!.startsWith(old[same]!)
    ) {
      // The last line grew: only its new end.
      out = target[same]!.slice(old[same]!.length);
      if (same + 1 < target.length) out += `\n${target.slice(same + 1).join('\n')}`;
    } else {
      // Back to the first line that differs (on screen, in the region), cleared from there down.
      const up = old.slice(same).reduce((n, line) => n + screen.rowsOf(line, columns), 0) - 1;
      out = `${up > 0 ? `\u001b[${up}A` : ''}\r\u001b[J${target.slice(same).join('\n')}`;
    }
    // The region empty: the cursor waits at the start of the line after what was written.
    if (!shown.length && target.length) out += '\n';
    if (out) screen.write(out);
    this.#lines = shown;
    this.#columns = columns;
  }

  /**
   * Something else was written where the cursor is (a terminal echoing Ctrl-C as ^C): the next
   * update draws the region's last line again, or clears the line when the region is empty.
   */
  overwritten(): void {
    this.#overwritten = true;
  }

  /** The last lines of `lines` that fit the screen with a row to spare. */
  #window(lines: string[], columns: number): string[] {
    const room = Math.max(1, this.screen.rows() - 1);
    let rows = 0;
    let start = lines.length;
    while (start > 0) {
      rows += this.screen.rowsOf(lines[start - 1]!, columns);
      if (rows > room) break;
      start--;
    }
    return start ? lines.slice(start) : lines;
  }
}
