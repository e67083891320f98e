// Chunk text made readable: query terms marked, and ASCII tables and interpreter
// sessions (which arrive with their line breaks collapsed to spaces) put back on lines.

const STOP_WORDS = new Set(
  "a an and are as at be by do does for from how i in is it of on or the to what when where which who why with".split(
    " ",
  ),
);

// The words of the query worth marking in a chunk: two letters or more, no stop words.
export function queryTerms(query) {
  const words = (query || "").toLowerCase().match(/[\p{L}\p{N}_]+/gu) || [];
  return [...new Set(words.filter((word) => word.length > 1 && !STOP_WORDS.has(word)))];
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// Segments of `text`: {text, mark} with mark true where a query term (or a word it
// begins, so "parse" marks "parsing") stands.
export function highlight(text, terms) {
  if (!terms.length) return [{ text, mark: false }];
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}_])(?:${terms.map(escapeRegExp).join("|")})[\\p{L}\\p{N}_]*`,
    "giu",
  );
  const segments = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) segments.push({ text: text.slice(last, match.index), mark: false });
    segments.push({ text: match[0], mark: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last), mark: false });
  return segments;
}

const TABLE_BORDER = /\+[-=]{3,}[-=+]*\+/g;
const PROMPT = / (?=>>> |\.\.\. )/g;

// Blocks of a chunk: {kind: "text" | "code", text}. An ASCII table (from its first
// border to its last) and a ">>>" session become code blocks with their lines restored.
export function readableBlocks(chunk) {
  const borders = [...chunk.matchAll(TABLE_BORDER)];
  if (borders.length >= 2) {
    const start = borders[0].index;
    const lastBorder = borders[borders.length - 1];
    const end = lastBorder.index + lastBorder[0].length;
    const table = chunk
      .slice(start, end)
      .replace(TABLE_BORDER, "\n$&\n")
      .replace(/\| \|/g, "|\n|")
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .join("\n");
    return [
      ...readableBlocks(chunk.slice(0, start).trim()),
      { kind: "code", text: table },
      ...readableBlocks(chunk.slice(end).trim()),
    ].filter((block) => block.text);
  }
  const prompt = chunk.indexOf(">>> ");
  if (prompt >= 0) {
    const before = chunk.slice(0, prompt).trim();
    const session = chunk.slice(prompt).replace(PROMPT, "\n");
    return [{ kind: "text", text: before }, { kind: "code", text: session }].filter((b) => b.text);
  }
  return chunk ? [{ kind: "text", text: chunk }] : [];
}
