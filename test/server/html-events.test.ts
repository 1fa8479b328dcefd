import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { type HtmlHandler, noAttributes, parseHtml } from '../../src/server/ingest/extraction/html-events.js';

type Event = [kind: 'open' | 'text' | 'close', name: string, implied?: boolean];

function recorder(): { events: Event[]; handler: HtmlHandler } {
  const events: Event[] = [];
  return {
    events,
    handler: {
      onopentag: (name) => events.push(['open', name]),
      ontext: (text) => events.push(['text', text]),
      onclosetag: (name, implied) => events.push(['close', name, implied]),
    },
  };
}

/** What htmlparser2 10's own Parser reports with the options html-text.ts used it with. */
function parserEvents(html: string): Event[] {
  const { events, handler } = recorder();
  const parser = new Parser(
    { ...handler, onopentag: (name) => handler.onopentag(name, noAttributes()) },
    {
      decodeEntities: true,
      lowerCaseTags: true,
      recognizeSelfClosing: true,
    },
  );
  parser.write(html);
  parser.end();
  return events;
}

function linearEvents(html: string): Event[] {
  const { events, handler } = recorder();
  parseHtml(handler, html);
  return events;
}

const NAMES =
  'p div li ul ol table tbody thead tfoot tr td th br hr img input select option optgroup dd dt rt rp a sup pre title script style svg math mi foreignObject body head h1 b span'.split(
    ' ',
  );
/** Tag soup: start, end and self-closing tags of names with implied-close rules, text, entities, comments. */
const tagSoup = fc
  .array(
    fc.oneof(
      fc.constantFrom(...NAMES).map((n) => `<${n}>`),
      fc.constantFrom(...NAMES).map((n) => `</${n}>`),
      fc.constantFrom(...NAMES).map((n) => `<${n.toUpperCase()} class="x"/>`),
      fc.constantFrom(
        'text',
        ' ',
        '\n',
        '&amp;',
        '&#x263A;',
        '<!-- c -->',
        '<![CDATA[d]]>',
        '<',
        'a<b',
        '<!x>',
      ),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

describe('reading HTML in time linear in its depth (#35)', () => {
  it('reports the same elements and text as htmlparser2 10 Parser, for any tag soup', () => {
    fc.assert(
      fc.property(tagSoup, (html) => {
        expect(linearEvents(html)).toEqual(parserEvents(html));
      }),
      { numRuns: 3000 },
    );
  });

  it('reports the same for a document of every construct html-text.ts reads', () => {
    const html = `<!doctype html><html><head><title>T &amp; t</title><script>x<y</script></head><body>
      <p>one<p>two</p></p><ul><li>a<li>b</ul><table><tr><th>H<td>v<tr><td>w</table><br/></br><pre>l1
      l2</pre><svg><path/></svg><select><option>o<option>p</select><dl><dt>t<dd>d</dl></body></html>`;
    expect(linearEvents(html)).toEqual(parserEvents(html));
  });
});
