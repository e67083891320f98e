import { describe, expect, it } from "vitest";
import type { Job } from "../api/client";
import { ApiError } from "../api/client";
import type { IngestItem } from "./ingest";
import { documentBody, draftErrors, EMPTY_DRAFT, errorText, fromJob, guessType, idFromTitle, keywordsOnly, retryable, stageText } from "./ingest";

const item: IngestItem = {
  key: 1, kind: "file", name: "guide.md", collection: "default", size: 2048, sent: 0, stage: "uploading",
  jobId: null, progress: null, docId: null, chunks: null, title: null, error: null, retryable: false, cancelling: false, parts: [], documents: null,
}; // prettier-ignore

const job = (status: string, patch: Partial<Job> = {}, itemPatch: object = {}): Job => ({
  id: 7, kind: "ingest", collection: "default", space: null, status, cancel_requested: false, attempts: 1,
  progress: { items: { total: 1, done: 0, failed: 0 }, chunks: { total: 300, embedded: 120, cached: 60, stored: 0 } },
  error: null, created_at: "", started_at: null, updated_at: "", finished_at: null,
  items: [{ ordinal: 0, name: "guide.md", content_type: "text/markdown", size: 2048, status: "queued", doc_id: null,
            chunks: null, error: null, finished_at: null, ...itemPatch }],
  ...patch,
}); // prettier-ignore

describe("an item's state from its job", () => {
  it("counts the chunks embedded or found in the cache while the job runs", () => {
    const running = fromJob(item, job("running"));
    expect(running.stage).toBe("embedding");
    expect(running.jobId).toBe(7);
    expect(stageText(running)).toBe("embedding: 180 of 300 chunks");
  });

  it("takes the stored document and its chunks when the item is done", () => {
    const done = fromJob(item, job("done", {}, { status: "done", doc_id: "guide.md", chunks: 300 }));
    expect(done).toMatchObject({ stage: "done", docId: "guide.md", chunks: 300 });
    expect(stageText(done)).toBe("done: 300 chunks stored");
    expect(keywordsOnly(done)).toBe(false);
  });

  it("says the item's own reason when it failed in a job that went on", () => {
    const failed = fromJob(item, job("done", {}, { status: "failed", error: "guide.md: the PDF cannot be read" }));
    expect(failed).toMatchObject({ stage: "failed", error: "guide.md: the PDF cannot be read" });
  });

  it("is cancelled when its job is", () => {
    expect(fromJob({ ...item, cancelling: true }, job("cancelled", {}, { status: "cancelled" }))).toMatchObject({
      stage: "cancelled",
      cancelling: false,
    });
  });

  it("is found by its words only when no vector was made or reused", () => {
    const chunks = { total: 2, embedded: 0, cached: 0, stored: 2 };
    const done = fromJob(item, job("done", { progress: { items: { total: 1, done: 1, failed: 0 }, chunks } }, { status: "done", doc_id: "d", chunks: 2 }));
    expect(keywordsOnly(done)).toBe(true);
  });
});

describe("a job that stores several documents (the files of a zip archive)", () => {
  const part = (name: string, patch: object = {}) => ({
    ordinal: 0, name, content_type: "text/markdown", size: 10, status: "queued", doc_id: null, chunks: null,
    error: null, finished_at: null, ...patch,
  }); // prettier-ignore
  const archive = (status: string, items: ReturnType<typeof part>[], done: number, failed: number): Job => ({
    ...job(status),
    progress: { items: { total: items.length, done, failed }, chunks: { total: 40, embedded: 10, cached: 0, stored: 5 } },
    items,
  });

  it("says which file it is at while it runs", () => {
    const running = fromJob({ ...item, name: "docs.zip" }, archive("running", [part("a.md", { status: "done" }), part("b.md"), part("c.pdf")], 1, 0));
    expect(stageText(running)).toBe("file 2 of 3, embedding: 10 of 40 chunks");
    expect(running.parts.map((p) => p.name)).toEqual(["a.md", "b.md", "c.pdf"]);
  });

  it("is done with the documents stored, each failed file with its reason", () => {
    const items = [
      part("a.md", { status: "done", doc_id: "a.md", chunks: 3 }),
      part("b.md", { status: "done", doc_id: "b.md", chunks: 2 }),
      part("c.pdf", { status: "failed", error: "c.pdf: not a PDF" }),
    ];
    const done = fromJob({ ...item, name: "docs.zip" }, archive("done", items, 2, 1));
    expect(done.stage).toBe("done");
    expect(stageText(done)).toBe("done: 2 of 3 documents, 5 chunks stored; 1 failed");
    expect(done.parts[2]).toMatchObject({ status: "failed", error: "c.pdf: not a PDF" });
  });
});

describe("errors beside an item or a field", () => {
  it("tells what to do about a missing or read-only key", () => {
    expect(errorText(new ApiError(401, { error: "Unauthorized" }))).toContain("enter a write key");
    const readOnly = errorText(new ApiError(403, { error: "this key may only read and search; writing needs a write key" }));
    expect(readOnly).toBe("this key may only read and search; writing needs a write key — enter a key that may write here in the header.");
  });

  it("keeps the server's own message otherwise", () => {
    expect(errorText(new ApiError(415, { error: "x.exe: cannot read this kind of file" }))).toBe("x.exe: cannot read this kind of file");
  });

  it("offers to send again only what may go otherwise", () => {
    expect(retryable(new ApiError(415, { error: "" }))).toBe(false);
    expect(retryable(new ApiError(413, { error: "" }))).toBe(false);
    expect(retryable(new ApiError(403, { error: "" }))).toBe(true);
    expect(retryable(new ApiError(503, { error: "" }))).toBe(true);
    expect(retryable(new Error("network"))).toBe(true);
  });
});

describe("a pasted text", () => {
  it("is read as HTML, Markdown, reST or plain text by its marks", () => {
    expect(guessType("<!doctype html><title>x</title><p>Hello</p>")).toBe("text/html");
    expect(guessType("# Title\n\nSome *text* and a [link](http://x).")).toBe("text/markdown");
    expect(guessType("- one\n- two")).toBe("text/markdown");
    expect(guessType("Title\n=====\n\n.. note::\n\n   Mind :func:`len`.")).toBe("text/x-rst");
    expect(guessType("Just a sentence. And 2 < 3 > 1.")).toBe("text/plain");
  });

  it("gets an id from its title", () => {
    expect(idFromTitle("  Cold Brew: notes (v2)! ")).toBe("cold-brew-notes-v2");
    expect(idFromTitle("Café crème")).toBe("café-crème");
    expect(idFromTitle("???")).toBe("");
  });

  it("is sent with its guessed type unless one is chosen, and its source when given", () => {
    const draft = { ...EMPTY_DRAFT, title: "Brew", text: "# Brew\n\nHot water." };
    expect(documentBody(draft, "team")).toEqual({
      collection: "team",
      doc_id: "brew",
      title: "Brew",
      text: "# Brew\n\nHot water.",
      content_type: "text/markdown",
    });
    expect(documentBody({ ...draft, docId: "b-1", src: " https://x/b ", contentType: "text/plain" }, "team")).toMatchObject({
      doc_id: "b-1",
      src: "https://x/b",
      content_type: "text/plain",
    });
  });

  it("needs text and an id before it is sent", () => {
    expect(draftErrors(EMPTY_DRAFT)).toEqual({ text: "Paste or type the text to add.", title: "Give a title (or an id): the document needs an id." });
    expect(draftErrors({ ...EMPTY_DRAFT, docId: "x", text: "t" })).toEqual({});
  });
});
