// Chunk text made readable: reST and Markdown inline markup rendered (``code``,
// :mod:`name`, `text <url>`_, **strong**, *em*, "::"), grid tables (which arrive with their
// line breaks and spacing collapsed) rebuilt as tables, interpreter sessions put back on
// lines, and the query's words marked.

const STOP_WORDS = new Set(
  "a an and are as at be by do does for from how i in is it of on or the to what when where which who why with".split(
    " ",
  ),
);

// The words of the query worth marking in a chunk: two letters or more, no stop words.
export function queryTerms(query: string): string[] {
  const words = (query || "").toLowerCase().match(/[\p{L}\p{N}_]+/gu) || [];
  return [...new Set(words.filter((word) => word.length > 1 && !STOP_WORDS.has(word)))];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export interface Segment {
  text: string;
  mark: boolean;
}

// Segments of `text`, mark true where a query term (or a word it begins, so "parse"
// marks "parsing") stands.
export function highlight(text: string, terms: string[]): Segment[] {
  if (!terms.length) return [{ text, mark: false }];
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${terms.map(escapeRegExp).join("|")})[\\p{L}\\p{N}_]*`, "giu");
  const segments: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const index = match.index ?? 0;
    if (index > last) segments.push({ text: text.slice(last, index), mark: false });
    segments.push({ text: match[0], mark: true });
    last = index + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last), mark: false });
  return segments;
}

export type InlineStyle = "plain" | "code" | "strong" | "em";

export interface Inline {
  text: string;
  style: InlineStyle;
}

// Inline markup, first match wins: [pattern, style, group holding the text shown].
const INLINE: [RegExp, InlineStyle][] = [
  [/``([^`]{1,200}?)``/y, "code"],
  [/:ref:`([^`<]+?)\s*(?:<[^>`]*>)?`/y, "plain"], // a cross-reference: its text
  [/:[a-z]+(?::[a-z]+)?:`~?([^`]+?)`/y, "code"], // :mod:`json`, :py:func:`~json.dumps`
  [/`([^`<]+?)\s*<[^>`]+>`__?/y, "plain"], // `text <url>`_
  [/\[([^\]\n]+)\]\([^)\s]+\)/y, "plain"], // [text](url)
  [/`([^`\n]{1,200}?)`/y, "code"],
  [/\*\*(\S(?:[^*]*?\S)?)\*\*(?=[\s.,;:!?)]|$)/y, "strong"],
  [/\*(\S(?:[^*]*?\S)?)\*(?=[\s.,;:!?)]|$)/y, "em"],
];
// Where markup may start: at the start, or after a space or an opening bracket (so that
// 2**32 or a*b are left alone); backticks and roles may start anywhere.
const OPENS_AFTER = /[\s([{"']/;

// reST's "::" ends a paragraph that introduces code: "Example::" reads "Example:", and
// a "::" standing alone is dropped.
const literalMarkers = (text: string) => text.replace(/(\S)::(?=\s|$)/g, "$1:").replace(/(^|\s)::(?=\s|$)/g, "$1");

function markupAt(text: string, index: number): { inline: Inline; end: number } | null {
  const char = text[index];
  if (char !== "`" && char !== ":" && char !== "*" && char !== "[") return null;
  if (char === "*" && index > 0 && !OPENS_AFTER.test(text[index - 1] ?? "")) return null;
  for (const [pattern, style] of INLINE) {
    pattern.lastIndex = index;
    const match = pattern.exec(text);
    if (match?.[1]) return { inline: { text: match[1], style }, end: index + match[0].length };
  }
  return null;
}

export function inlineMarkup(text: string): Inline[] {
  const out: Inline[] = [];
  let plain = "";
  const add = (inline: Inline) => {
    const last = out[out.length - 1];
    if (inline.style === "plain" && last?.style === "plain") last.text += inline.text;
    else if (inline.text) out.push(inline);
  };
  const flush = () => {
    add({ text: literalMarkers(plain), style: "plain" });
    plain = "";
  };
  for (let i = 0; i < text.length; ) {
    const found = markupAt(text, i);
    if (found) {
      flush();
      add(found.inline);
      i = found.end;
    } else {
      plain += text[i];
      i += 1;
    }
  }
  flush();
  return out;
}

export type Block =
  | { kind: "text"; text: string }
  | { kind: "code"; text: string }
  | { kind: "table"; header: string[][]; rows: string[][] };

const TABLE_BORDER = /\+[-=]{3,}[-=+]*\+/g;
const PROMPT = / (?=>>> |\.\.\. )/g;

// A grid table's lines (borders and rows of cells) as a header and body of cells; the
// lines of a multi-line row are joined cell by cell.
function gridTable(lines: string[]): Block {
  const header: string[][] = [];
  const rows: string[][] = [];
  let pending: string[] | null = null;
  const close = (into: string[][]) => {
    if (pending) into.push(pending.map((cell) => cell.trim()));
    pending = null;
  };
  for (const line of lines) {
    if (line.startsWith("+")) {
      const isHeaderEnd = line.includes("=");
      close(isHeaderEnd ? header : rows);
      continue;
    }
    const cells = line.split("|").slice(1, -1);
    pending = pending ? pending.map((cell, i) => `${cell.trim()} ${(cells[i] ?? "").trim()}`) : cells;
  }
  close(rows);
  return { kind: "table", header, rows };
}

function tableLines(text: string): string[] {
  return text
    .replace(TABLE_BORDER, "\n$&\n")
    .replace(/\| \|/g, "|\n|")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

// Blocks of a chunk. A grid table (from its first border to its last) becomes a table,
// a ">>>" session a code block with its lines restored.
export function readableBlocks(chunk: string): Block[] {
  const borders = [...chunk.matchAll(TABLE_BORDER)];
  const first = borders[0];
  const last = borders[borders.length - 1];
  if (first && last && borders.length >= 2) {
    const start = first.index ?? 0;
    const end = (last.index ?? 0) + last[0].length;
    return [
      ...readableBlocks(chunk.slice(0, start).trim()),
      gridTable(tableLines(chunk.slice(start, end))),
      ...readableBlocks(chunk.slice(end).trim()),
    ];
  }
  const prompt = chunk.indexOf(">>> ");
  if (prompt >= 0) {
    const before = chunk.slice(0, prompt).trim();
    const session = chunk.slice(prompt).replace(PROMPT, "\n");
    const blocks: Block[] = before ? [{ kind: "text", text: before }] : [];
    return [...blocks, { kind: "code", text: session }];
  }
  return chunk ? [{ kind: "text", text: chunk }] : [];
}
