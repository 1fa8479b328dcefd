import type { Hit } from '../search/hit.js';
import { type Passage, passagesOf } from './passages.js';

/**
 * Where a follow-up's subject is known without its words ("Is it deleted when I close it?"
 * after NamedTemporaryFile's difference from TemporaryFile): the passages the previous answer
 * said, and those of its file under a heading it quoted from (the rest of that function's
 * section, in the next chunk too). A sentence there that holds the follow-up's own words
 * answers it, whether or not it names the subject again. Not the other rows of a table the
 * previous answer quoted one row of: each row is about its own subject.
 */
export function previousAnswerContext(
  hits: Hit[],
  drawnOn: Set<string> | undefined,
  said: string | undefined,
): (passage: Passage) => boolean {
  if (!drawnOn?.size || !said) return () => false;
  const key = (p: Passage) => `${p.chunk.id}\0${p.position}`;
  const section = (p: Passage) => `${p.chunk.fileId}\0${p.lead}`;
  const quoted = new Set<string>();
  const quotedUnder = new Set<string>();
  for (const hit of hits) {
    if (!drawnOn.has(hit.chunk.id)) continue;
    for (const p of passagesOf(hit.chunk)) {
      if (!said.includes(p.text)) continue;
      quoted.add(key(p));
      if (p.lead !== undefined) quotedUnder.add(section(p));
    }
  }
  return (p) => quoted.has(key(p)) || (p.lead !== undefined && quotedUnder.has(section(p)));
}
