import { describe, expect, it } from "vitest";
import { highlight, inlineMarkup, queryTerms, readableBlocks } from "./text";

describe("highlighting", () => {
  it("keeps the words worth marking", () => {
    expect(queryTerms("How do I parse JSON text into Python objects?")).toEqual([
      "parse", "json", "text", "into", "python", "objects",
    ]); // prettier-ignore
  });

  it("marks whole words and words a term begins, case-insensitively", () => {
    const marked = highlight("Parsing JSON: json.loads, not jsonish? reparse", ["parse", "json"])
      .filter((s) => s.mark)
      .map((s) => s.text);
    expect(marked).toEqual(["JSON", "json", "jsonish"]);
  });

  it("returns the text whole when nothing is marked, and loses no character", () => {
    const text = "a (b) [c] *d* $e";
    expect(highlight(text, [])).toEqual([{ text, mark: false }]);
    expect(highlight(text, ["(b)", "d"]).map((s) => s.text).join("")).toBe(text);
  });
});

describe("inline markup", () => {
  it("renders reST literals and roles as code, links as their text", () => {
    expect(inlineMarkup("Use ``dict`` with :mod:`json` and :func:`~json.dumps`, see `the spec <https://json.org>`_.")).toEqual([
      { text: "Use ", style: "plain" },
      { text: "dict", style: "code" },
      { text: " with ", style: "plain" },
      { text: "json", style: "code" },
      { text: " and ", style: "plain" },
      { text: "json.dumps", style: "code" },
      { text: ", see the spec.", style: "plain" },
    ]);
  });

  it("turns a literal block's '::' into ':' and drops one standing alone", () => {
    expect(inlineMarkup("Encoding basic objects:: and this ::")).toEqual([
      { text: "Encoding basic objects: and this ", style: "plain" },
    ]);
  });

  it("renders emphasis only where it opens and closes a word, not in arithmetic", () => {
    expect(inlineMarkup("an *old_node* and **strong** but 2**32 and a*b*c")).toEqual([
      { text: "an ", style: "plain" },
      { text: "old_node", style: "em" },
      { text: " and ", style: "plain" },
      { text: "strong", style: "strong" },
      { text: " but 2**32 and a*b*c", style: "plain" },
    ]);
  });

  it("renders Markdown code and links", () => {
    expect(inlineMarkup("call `loads` ([docs](https://x.org/a))")).toEqual([
      { text: "call ", style: "plain" },
      { text: "loads", style: "code" },
      { text: " (docs)", style: "plain" },
    ]);
  });
});

describe("readable blocks", () => {
  it("rebuilds a collapsed grid table as a header and rows of cells", () => {
    const chunk =
      "Translations: +------+--------+ | JSON | Python | +======+========+ | object | dict | " +
      "+------+--------+ | array | list | +------+--------+ done";
    const blocks = readableBlocks(chunk);
    expect(blocks).toEqual([
      { kind: "text", text: "Translations:" },
      { kind: "table", header: [["JSON", "Python"]], rows: [["object", "dict"], ["array", "list"]] },
      { kind: "text", text: "done" },
    ]);
  });

  it("joins the lines of a multi-line row cell by cell", () => {
    const chunk = "+---+---+ | a | b | | c | d | +---+---+";
    expect(readableBlocks(chunk)).toEqual([{ kind: "table", header: [], rows: [["a c", "b d"]] }]);
  });

  it("puts an interpreter session on lines", () => {
    expect(readableBlocks("Example: >>> import json >>> json.dumps(1) '1'")).toEqual([
      { kind: "text", text: "Example:" },
      { kind: "code", text: ">>> import json\n>>> json.dumps(1) '1'" },
    ]);
  });

  it("leaves prose alone", () => {
    expect(readableBlocks("plain words")).toEqual([{ kind: "text", text: "plain words" }]);
  });
});
