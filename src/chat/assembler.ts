/**
 * Turns typed lines into messages: a `"""` block, lines ending in `\`, and the lines of a
 * bracketed paste (ended by the Enter after it) each become one multi-line message.
 */
export class MessageAssembler {
  #lines: string[] = [];
  #mode: 'none' | 'block' | 'continued' | 'paste' = 'none';

  /** True while more lines are expected before a message is complete. */
  get pending(): boolean {
    return this.#mode !== 'none';
  }

  /** Feeds one line; returns the complete message when this line ends one. */
  push(line: string, pasted = false): string | undefined {
    if (this.#mode === 'block') {
      if (line.trim() === '"""') return this.#finish();
      this.#lines.push(line);
      return undefined;
    }
    if (pasted) {
      this.#lines.push(line);
      this.#mode = 'paste';
      return undefined;
    }
    if (this.#mode === 'none' && line.trim() === '"""') {
      this.#mode = 'block';
      return undefined;
    }
    if (this.#mode === 'none' && line.trimStart().startsWith('"""') && line.trim().length > 3) {
      // `"""first line` opens a block that already has content
      this.#mode = 'block';
      this.#lines.push(line.trimStart().slice(3));
      if (line.trimEnd().endsWith('"""') && line.trim().length > 6) {
        this.#lines[this.#lines.length - 1] = line.trim().slice(3, -3);
        return this.#finish();
      }
      return undefined;
    }
    if (line.endsWith('\\')) {
      this.#lines.push(line.slice(0, -1));
      this.#mode = 'continued';
      return undefined;
    }
    this.#lines.push(line);
    return this.#finish();
  }

  /** Drops a half-typed message (Ctrl-C). */
  reset(): void {
    this.#lines = [];
    this.#mode = 'none';
  }

  #finish(): string {
    const message = this.#lines.join('\n');
    this.reset();
    return message;
  }
}
