import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/** What kb reads of a tag's attributes. */
export interface TagAttributes {
  /** Hidden from readers (`aria-hidden="true"`). */
  hidden: boolean;
  /** It has an `href`: a link, not a named anchor (`<a name>`). */
  href: boolean;
  /** The anchor in this page a link leads to (`href="#3.2-tune.bufsize"`). */
  target: string | undefined;
  /** The address a link leads to elsewhere (`href="https://mosquitto.org/"`, `mailto:…`). */
  address: string | undefined;
  /** The anchor it is (its `name` or `id`). */
  anchor: string | undefined;
  /** A page's navigation by its role (`role="navigation"`: Sphinx's sidebar; `role="search"`, `role="contentinfo"`). */
  navigation: boolean;
}

/** A tag's attributes before any is read: every field there from the start, as V8 reads fastest. */
export const noAttributes = (): TagAttributes => ({
  hidden: false,
  href: false,
  target: undefined,
  address: undefined,
  anchor: undefined,
  navigation: false,
});

/** The attributes whose values kb reads. */
const READ_VALUES = new Set(['aria-hidden', 'href', 'name', 'id', 'role']);
/** Roles of a page's furniture: its menus and sidebars, its search box, and its footer (copyright, "Built with Sphinx"). */
const NAVIGATION_ROLES = new Set(['navigation', 'search', 'contentinfo']);

/** What `parseHtml` reports, as htmlparser2's Parser reports it to a handler of these three. */
export interface HtmlHandler {
  onopentag(name: string, attributes: TagAttributes): void;
  ontext(text: string): void;
  onclosetag(name: string, isImplied: boolean): void;
}

const P = new Set(['p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const TABLE_SECTION = new Set(['thead', 'tbody']);
const DD_DT = new Set(['dd', 'dt']);
const RT_RP = new Set(['rt', 'rp']);
/** An open tag of the key closes the open elements of the value above it (htmlparser2 10's table). */
const OPEN_IMPLIES_CLOSE = new Map<string, Set<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DD_DT],
  ['dt', DD_DT],
  ['rt', RT_RP],
  ['rp', RT_RP],
  ['tbody', TABLE_SECTION],
  ['tfoot', TABLE_SECTION],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((n) => [n, FORM] as const),
  ...'p h1 h2 h3 h4 h5 h6 address article aside blockquote details div dl fieldset figcaption figure footer form header hr main nav ol pre section table ul'
    .split(' ')
    .map((n) => [n, P] as const),
]);
const VOID = new Set(
  'area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr'.split(
    ' ',
  ),
);

/**
 * The open elements, innermost last, with a count per name: opening and closing are O(1)
 * (amortised over the elements a close tag pops), so a document costs time linear in its length
 * however deep it nests. htmlparser2's own Parser keeps its stack with unshift and shift, which
 * move every open element each time: quadratic in depth (200,000 nested divs took 10 s).
 */
class OpenElements {
  readonly #names: string[] = [];
  readonly #counts = new Map<string, number>();

  get length(): number {
    return this.#names.length;
  }

  top(): string | undefined {
    return this.#names[this.#names.length - 1];
  }

  push(name: string): void {
    this.#names.push(name);
    this.#counts.set(name, (this.#counts.get(name) ?? 0) + 1);
  }

  pop(): string {
    const name = this.#names.pop()!;
    this.#counts.set(name, this.#counts.get(name)! - 1);
    return name;
  }

  /** How many elements are above the innermost open `name`, or -1 when none is open. */
  depthOf(name: string): number {
    if (!this.#counts.get(name)) return -1;
    const at = this.#names.lastIndexOf(name);
    return this.#names.length - 1 - at;
  }
}

/**
 * Reads `html` with htmlparser2's Tokenizer and reports its elements and text exactly as
 * htmlparser2 10's Parser does with `{ decodeEntities, lowerCaseTags, recognizeSelfClosing }`
 * (the same implied closes, void elements and stray end tags), in time linear in its length.
 */
export function parseHtml(handler: HtmlHandler, html: string): void {
  const open = new OpenElements();
  let tagname = '';
  /** An open tag whose start has been read and not yet reported. */
  let opening = false;
  /** The attribute being read, and what the open tag's say so far. */
  let attribute = '';
  let value = '';
  let attributes = noAttributes();
  const slice = (start: number, end: number) => html.slice(start, end);

  const emitOpenTag = (name: string) => {
    tagname = name;
    opening = true;
    attributes = noAttributes();
    const closes = OPEN_IMPLIES_CLOSE.get(name);
    if (closes) while (open.length > 0 && closes.has(open.top()!)) handler.onclosetag(open.pop(), true);
    if (!VOID.has(name)) open.push(name);
  };
  const endOpenTag = () => {
    if (opening) handler.onopentag(tagname, attributes);
    opening = false;
    if (VOID.has(tagname)) handler.onclosetag(tagname, true);
    tagname = '';
  };
  const closeCurrentTag = (isOpenImplied: boolean) => {
    const name = tagname;
    endOpenTag();
    if (open.top() === name) {
      handler.onclosetag(name, !isOpenImplied);
      open.pop();
    }
  };
  const ignore = () => {};
  const callbacks: TokenizerCallbacks = {
    ontext: (start, end) => handler.ontext(slice(start, end)),
    ontextentity: (codepoint) => handler.ontext(String.fromCodePoint(codepoint)),
    onopentagname: (start, end) => emitOpenTag(slice(start, end).toLowerCase()),
    onopentagend: endOpenTag,
    onselfclosingtag: () => closeCurrentTag(false),
    onclosetag(start, end) {
      const name = slice(start, end).toLowerCase();
      if (!VOID.has(name)) {
        const depth = open.depthOf(name);
        if (depth !== -1) for (let i = 0; i <= depth; i++) handler.onclosetag(open.pop(), i !== depth);
        else if (name === 'p') {
          // An end tag without its start: an empty paragraph.
          emitOpenTag('p');
          closeCurrentTag(true);
        }
      } else if (name === 'br') {
        handler.onopentag('br', noAttributes());
        handler.onclosetag('br', false);
      }
    },
    onend() {
      while (open.length > 0) handler.onclosetag(open.pop(), true);
    },
    onattribname(start, end) {
      attribute = slice(start, end).toLowerCase();
      value = '';
    },
    onattribdata(start, end) {
      if (READ_VALUES.has(attribute)) value += slice(start, end);
    },
    onattribentity(codepoint) {
      if (READ_VALUES.has(attribute)) value += String.fromCodePoint(codepoint);
    },
    onattribend() {
      if (attribute === 'aria-hidden' && value.trim().toLowerCase() === 'true') attributes.hidden = true;
      if (attribute === 'href') {
        attributes.href = true;
        if (value.startsWith('#') && value.length > 1) attributes.target = value.slice(1);
        else if (/^[a-z][a-z0-9+.-]*:/i.test(value.trim())) attributes.address = value.trim();
      }
      if ((attribute === 'name' || attribute === 'id') && value) attributes.anchor = value;
      if (attribute === 'role' && NAVIGATION_ROLES.has(value.trim().toLowerCase()))
        attributes.navigation = true;
      attribute = '';
    },
    oncdata: ignore,
    oncomment: ignore,
    ondeclaration: ignore,
    onprocessinginstruction: ignore,
  };
  const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
}
