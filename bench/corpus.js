// A generated corpus with a natural word distribution: a vocabulary of made-up words drawn
// with Zipf's law, so a few words are everywhere and most are rare, as in real documents.

function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const SYLLABLES =
  'ka lo mi ne ru sa te vo zi pa do fe gu hi ja ko lu ma no pe qui ro su ta ve wa xo yu ze'.split(' ');

export function vocabulary(size, rand) {
  const words = new Set();
  while (words.size < size) {
    const n = 2 + Math.floor(rand() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

/**
 * `count` documents of about `bytes` each, handed to `onDocument(name, text)` one at a time as
 * they are made (so that a large corpus can be written without being held); returns the query texts.
 */
export function eachDocument(count, onDocument, bytes = 2800, seed = 42) {
  const rand = random(seed);
  const words = vocabulary(5000, rand);
  // Zipf: weight of rank r is 1/r; sample by inverting the cumulative sum.
  const cumulative = [];
  let total = 0;
  for (let r = 1; r <= words.length; r++) {
    total += 1 / r;
    cumulative.push(total);
  }
  const pick = () => {
    const x = rand() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
  for (let i = 0; i < count; i++) {
    let text = `# Note ${i}\n\n`;
    while (text.length < bytes) {
      const length = 8 + Math.floor(rand() * 14);
      const sentence = Array.from({ length }, pick).join(' ');
      text += `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}. `;
      if (rand() < 0.15) text += '\n\n';
    }
    onDocument(`note-${String(i).padStart(5, '0')}.md`, text);
  }
  return Array.from(
    { length: 200 },
    () => `What about ${words[50 + Math.floor(rand() * 2000)]} and ${words[20 + Math.floor(rand() * 500)]}?`,
  );
}

/** `count` documents of about `bytes` each; returns [name, text] pairs and query words. */
export function corpus(count, bytes = 2800, seed = 42) {
  const docs = [];
  const queries = eachDocument(count, (name, text) => docs.push([name, text]), bytes, seed);
  return { docs, queries };
}
