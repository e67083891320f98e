import { describe, expect, it } from "vitest";
import { highlight, queryTerms, readableBlocks } from "./text.js";

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

describe("readable chunks", () => {
  it("puts a collapsed ASCII table back on lines", () => {
    const chunk =
      "Translations: +------+--------+ | JSON | Python | +======+========+ | object | dict | " +
      "+------+--------+ | array | list | +------+--------+ done";
    const blocks = readableBlocks(chunk);
    expect(blocks.map((b) => b.kind)).toEqual(["text", "code", "text"]);
    expect(blocks[1].text.split("\n")).toEqual([
      "+------+--------+", "| JSON | Python |", "+======+========+", "| object | dict |",
      "+------+--------+", "| array | list |", "+------+--------+",
    ]); // prettier-ignore
  });

  it("puts an interpreter session on lines", () => {
    const blocks = readableBlocks("Example: >>> import json >>> json.dumps(1) '1'");
    expect(blocks).toEqual([
      { kind: "text", text: "Example:" },
      { kind: "code", text: ">>> import json\n>>> json.dumps(1) '1'" },
    ]);
  });

  it("leaves prose alone", () => {
    expect(readableBlocks("plain words")).toEqual([{ kind: "text", text: "plain words" }]);
  });
});
