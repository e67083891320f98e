// Documents in from the page: what each document or file sent is doing (uploading,
// queued, embedding, done, failed, cancelled), read from the job the service runs it as,
// and what the page sends for a pasted text.

import type { DocumentBody, Job } from "../api/client";
import { ApiError, readDocument } from "../api/client";

export type Stage = "waiting" | "uploading" | "queued" | "embedding" | "done" | "failed" | "cancelled";

export interface ChunkProgress {
  total: number; // chunks read so far
  embedded: number; // texts sent to the embedder
  cached: number; // vectors found in the embedding cache
  stored: number;
}

// One document of a job that stores several (the files of a zip archive).
export interface Part {
  name: string;
  status: string; // queued, done, failed or cancelled
  docId: string | null;
  chunks: number | null;
  error: string | null;
}

export interface IngestItem {
  key: number;
  kind: "text" | "file";
  name: string; // the title given, or the file's name
  collection: string;
  size: number; // bytes
  sent: number; // bytes of the upload sent
  stage: Stage;
  jobId: number | null;
  progress: ChunkProgress | null;
  docId: string | null;
  chunks: number | null;
  title: string | null; // the stored document's title, searched by "search for it"
  error: string | null;
  retryable: boolean; // sending it again may go otherwise (not a refused type or size)
  cancelling: boolean;
  parts: Part[]; // the documents of a job that stores several, else none
  documents: { total: number; done: number; failed: number } | null;
}

export const FINISHED: ReadonlySet<Stage> = new Set(["done", "failed", "cancelled"]);
export const isRunning = (item: IngestItem) => !FINISHED.has(item.stage);
// Stored, but no vector was made or reused: no space of the collection has an embedder.
export const keywordsOnly = (item: IngestItem): boolean =>
  item.stage === "done" && (item.chunks ?? 0) > 0 && item.progress !== null && item.progress.embedded + item.progress.cached === 0;

// A refusal that holds whatever is sent again: the file's type, size or content.
export const retryable = (error: unknown) =>
  !(error instanceof ApiError) || error.status >= 500 || [0, 401, 403, 408, 429].includes(error.status);

export const canCancel = (item: IngestItem) => item.jobId !== null && (item.stage === "queued" || item.stage === "embedding");

const partOf = (item: NonNullable<Job["items"]>[number]): Part => ({
  name: item.name,
  status: item.status,
  docId: item.doc_id,
  chunks: item.chunks,
  error: item.error,
});

// The item's state as its job reports it: a job of the page holds one document or file,
// or the files of one zip archive (its parts).
export function fromJob(item: IngestItem, job: Job): IngestItem {
  const jobItems = job.items ?? [];
  const progress = job.progress.chunks;
  const several = jobItems.length > 1 || job.progress.items.total > 1;
  const next: IngestItem = {
    ...item,
    jobId: job.id,
    progress,
    cancelling: item.cancelling || job.cancel_requested,
    parts: several ? jobItems.map(partOf) : [],
    documents: several ? job.progress.items : null,
  };
  if (job.status === "queued") return { ...next, stage: "queued" };
  if (job.status === "running") return { ...next, stage: "embedding" };
  const finished = { ...next, cancelling: false };
  if (several) return severalFinished(finished, job);
  const only = jobItems[0];
  if (job.status === "cancelled" || only?.status === "cancelled") return { ...finished, stage: "cancelled" };
  if (only?.status === "done") return { ...finished, stage: "done", docId: only.doc_id, chunks: only.chunks };
  const reason = only?.error ?? job.error ?? `the job ended ${job.status}`;
  return { ...finished, stage: "failed", error: reason, retryable: true };
}

// Done when any of its documents is stored (the failed ones say why beside them).
function severalFinished(item: IngestItem, job: Job): IngestItem {
  const chunks = item.parts.reduce((sum, part) => sum + (part.status === "done" ? (part.chunks ?? 0) : 0), 0);
  const stored = item.parts.some((part) => part.status === "done");
  if (job.status === "cancelled") return { ...item, stage: "cancelled", chunks };
  if (stored) return { ...item, stage: "done", chunks };
  return { ...item, stage: "failed", error: job.error ?? "no file of it could be stored", retryable: true };
}

// A stored document's title ("" when it has none), or null when it cannot be read.
export async function storedTitle(docId: string, collection: string, apiKey: string): Promise<string | null> {
  try {
    return (await readDocument(docId, collection, { apiKey })).title;
  } catch {
    return null;
  }
}

// What the page says beside an error: the server's own message, and what to do about a key.
export function errorText(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  if (error.status === 401) return `${error.message}: this server needs an API key — enter a write key in the header.`;
  if (error.status === 403) return `${error.message} — enter a key that may write here in the header.`;
  return error.message;
}

// The stage in words, with the numbers the user waits on.
export function stageText(item: IngestItem): string {
  const chunks = item.progress;
  switch (item.stage) {
    case "waiting":
      return "waiting to upload";
    case "uploading":
      return `uploading ${bytes(item.sent)} of ${bytes(item.size)}`;
    case "queued":
      return item.cancelling ? "cancelling…" : "queued";
    case "embedding": {
      const what = `${item.cancelling ? "cancelling… " : ""}${filesText(item)}`;
      if (!chunks || chunks.total === 0) return `${what}reading`;
      return `${what}embedding: ${Math.min(chunks.embedded + chunks.cached, chunks.total)} of ${chunks.total} chunks`;
    }
    case "done": {
      const stored = `${item.chunks ?? 0} chunk${item.chunks === 1 ? "" : "s"} stored`;
      const docs = item.documents;
      if (!docs) return `done: ${stored}`;
      return `done: ${docs.done} of ${docs.total} documents, ${stored}${docs.failed ? `; ${docs.failed} failed` : ""}`;
    }
    case "failed":
      return "failed";
    case "cancelled":
      return "cancelled";
  }
}

const filesText = (item: IngestItem) =>
  item.documents ? `file ${Math.min(item.documents.done + item.documents.failed + 1, item.documents.total)} of ${item.documents.total}, ` : "";

// 0..1 for a progress bar, or null when there is nothing to measure yet.
export function fraction(item: IngestItem): number | null {
  if (item.stage === "uploading") return item.size ? item.sent / item.size : null;
  if (item.stage === "embedding" && item.progress?.total) {
    return Math.min(1, (item.progress.embedded + item.progress.cached) / item.progress.total);
  }
  return null;
}

export function bytes(count: number): string {
  if (count < 1024) return `${count} B`;
  if (count < 1024 * 1024) return `${(count / 1024).toFixed(1)} KB`;
  return `${(count / 1024 / 1024).toFixed(1)} MB`;
}

// ---- a pasted text ------------------------------------------------------------------

export interface TextDraft {
  title: string;
  docId: string; // "": made from the title
  src: string;
  contentType: string; // "": guessed from the text
  text: string;
}

export const EMPTY_DRAFT: TextDraft = { title: "", docId: "", src: "", contentType: "", text: "" };

export const CONTENT_TYPES: [string, string][] = [
  ["text/plain", "Plain text"],
  ["text/markdown", "Markdown"],
  ["text/html", "HTML"],
  ["text/x-rst", "reStructuredText"],
  ["text/x-code", "Source code"],
];

export const typeName = (type: string) => CONTENT_TYPES.find(([value]) => value === type)?.[1] ?? type;

const HTML = /<(?:!doctype html|html|head|body|p|div|h[1-6]|ul|ol|li|table|article|section|main|br|a\s[^>]*href)\b[^>]*>/i;
const MARKDOWN = [/^#{1,6}\s+\S/m, /^```/m, /^\s*[-*+]\s+\S/m, /\[[^\]]+\]\([^)]+\)/, /^\|.+\|\s*$/m, /^>\s/m];
const RST = [/^\.\. [\w-]+::/m, /^[^\n]+\n(?:={3,}|-{3,}|~{3,}|\^{3,})\s*$/m, /:[a-z]+:`[^`]+`/];

// What the text looks like: HTML tags, else Markdown or reST marks, else plain text.
export function guessType(text: string): string {
  const start = text.slice(0, 20_000);
  if (HTML.test(start)) return "text/html";
  const markdown = MARKDOWN.filter((mark) => mark.test(start)).length;
  const rst = RST.filter((mark) => mark.test(start)).length;
  if (rst > markdown) return "text/x-rst";
  if (markdown > 0) return "text/markdown";
  return "text/plain";
}

// A doc_id from a title: lower case words joined by "-" (re-sending the same id replaces
// the document, so the form says which id it will use).
export function idFromTitle(title: string): string {
  return title
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
}

export const draftId = (draft: TextDraft) => draft.docId.trim() || idFromTitle(draft.title);

export function documentBody(draft: TextDraft, collection: string): DocumentBody {
  const body: DocumentBody = {
    collection,
    doc_id: draftId(draft),
    title: draft.title.trim(),
    text: draft.text,
    content_type: draft.contentType || guessType(draft.text),
  };
  if (draft.src.trim()) body.src = draft.src.trim();
  return body;
}

// The draft's fields the page checks before sending (the server checks the rest).
export function draftErrors(draft: TextDraft): Partial<Record<keyof TextDraft, string>> {
  const errors: Partial<Record<keyof TextDraft, string>> = {};
  if (!draft.text.trim()) errors.text = "Paste or type the text to add.";
  if (!draftId(draft)) errors.title = "Give a title (or an id): the document needs an id.";
  return errors;
}
