import { citedSources, type KbFile } from '../../api/types.js';
import { colorStatus } from '../../io/format.js';
import { citedFilename } from '../../util/citation.js';
import { sanitizeField } from '../../util/sanitize.js';
import type { SlashCommand } from './command.js';

export const sources: SlashCommand = {
  name: 'sources',
  description: 'the files the last reply cited, with their indexing status',
  async run(repl) {
    const reply = repl.lastReply();
    const cited = citedSources(reply);
    if (!reply || cited.length === 0) {
      repl.print(repl.color.dim(reply ? 'The last reply cited no files.\n' : 'No reply yet.\n'));
      return undefined;
    }
    // Every page until each cited file is found: a workspace may hold many more than a page.
    const wanted = new Set(cited.map(citedFilename));
    const byName = new Map<unknown, KbFile>();
    if (repl.client.files)
      for await (const page of repl.client.files.pages({ want: Infinity, signal: repl.signal() })) {
        for (const file of page.data)
          if (wanted.has(String(file.originalFilename)) && !byName.has(file.originalFilename))
            byName.set(file.originalFilename, file);
        if (byName.size === wanted.size) break;
      }
    const width = Math.max(...cited.map((name) => name.length));
    for (const name of cited) {
      const file = byName.get(citedFilename(name));
      const status = file
        ? colorStatus(repl.color, String(file.indexingStatus))
        : repl.color.yellow('not found');
      repl.print(
        `  ${sanitizeField(name).padEnd(width)}  ${status}${file ? repl.color.dim(`  ${sanitizeField(file.id)}`) : ''}\n`,
      );
    }
    return undefined;
  },
};
