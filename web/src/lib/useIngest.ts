// The documents and files sent from the page, and the jobs they run as: files are
// uploaded one after another (each its own request, so that a refused file is answered
// alone and the others still go in), every job is followed until it ends, and a stored
// document's title is read back for "search for it".

import { useCallback, useEffect, useReducer, useRef } from "react";
import type { Job } from "../api/client";
import { addDocument, cancelJob, readJob, uploadFile } from "../api/client";
import type { IngestItem, TextDraft } from "./ingest";
import { documentBody, errorText, fromJob, retryable, storedTitle } from "./ingest";

export const POLL_MS = 500;
const POLLS_AT_ONCE = 3; // more jobs followed: each is asked less often (about 6 asks a second in all)
const POLL_FAILURES = 6; // answers missed in a row before an item is given up on

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function useIngest(apiKey: string) {
  const items = useRef<IngestItem[]>([]);
  const files = useRef(new Map<number, File>()); // kept to send a failed file again
  const [, rendered] = useReducer((n: number) => n + 1, 0);
  const caller = useRef({ apiKey });
  caller.current = { apiKey };
  const uploads = useRef<Promise<void>>(Promise.resolve());
  const nextKey = useRef(1);
  const alive = useRef(true);
  const following = useRef(0);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const put = useCallback((key: number, change: (item: IngestItem) => IngestItem): IngestItem | undefined => {
    let changed: IngestItem | undefined;
    items.current = items.current.map((item) => (item.key === key ? (changed = change(item)) : item));
    rendered();
    return changed;
  }, []);

  const add = useCallback((kind: IngestItem["kind"], name: string, collection: string, size: number, stage: IngestItem["stage"]) => {
    const item: IngestItem = {
      key: nextKey.current++, kind, name, collection, size, sent: 0, stage,
      jobId: null, progress: null, docId: null, chunks: null, title: null, error: null, retryable: false, cancelling: false, parts: [], documents: null,
    }; // prettier-ignore
    items.current = [item, ...items.current];
    rendered();
    return item;
  }, []);

  const fail = useCallback(
    (key: number, error: unknown) =>
      put(key, (item) => ({ ...item, stage: "failed", error: errorText(error), retryable: retryable(error), cancelling: false })),
    [put],
  );

  const titled = useCallback(
    async (key: number) => {
      const item = items.current.find((i) => i.key === key);
      if (!item?.docId) return;
      const title = await storedTitle(item.docId, item.collection, caller.current.apiKey);
      if (title) put(key, (i) => ({ ...i, title }));
    },
    [put],
  );

  const follow = useCallback(
    async (key: number, job: Job) => {
      let item = put(key, (i) => fromJob(i, job));
      let missed = 0;
      following.current += 1;
      try {
        while (alive.current && item && (item.stage === "queued" || item.stage === "embedding")) {
          await sleep(POLL_MS * Math.max(1, following.current / POLLS_AT_ONCE));
          try {
            const { job: now } = await readJob(job.id, caller.current);
            missed = 0;
            item = put(key, (i) => fromJob(i, now));
          } catch (error) {
            missed += 1;
            if (missed >= POLL_FAILURES) item = fail(key, error);
          }
        }
      } finally {
        following.current -= 1;
      }
      if (item?.stage === "done") await titled(key);
    },
    [put, fail, titled],
  );

  const addText = useCallback(
    async (draft: TextDraft, collection: string) => {
      const body = documentBody(draft, collection);
      const answer = await addDocument(body, caller.current); // a refusal is the form's to show
      const item = add("text", body.title || body.doc_id, collection, new Blob([draft.text]).size, "queued");
      if ("job" in answer) void follow(item.key, answer.job);
      else put(item.key, (i) => ({ ...i, stage: "done", docId: answer.doc_id, chunks: answer.chunks, title: body.title || null }));
    },
    [add, follow, put],
  );

  const send = useCallback(
    async (key: number, file: File) => {
      put(key, (i) => ({ ...i, stage: "uploading", sent: 0, error: null }));
      try {
        const answer = await uploadFile(file, items.current.find((i) => i.key === key)?.collection ?? "default", {
          ...caller.current,
          onProgress: (sent, total) => put(key, (i) => ({ ...i, sent, size: total })),
        });
        if ("job" in answer) {
          void follow(key, answer.job);
          return;
        }
        const stored = answer.documents[0];
        if (stored?.error || !stored) fail(key, new Error(stored?.error ?? "the server stored nothing"));
        else put(key, (i) => ({ ...i, stage: "done", docId: stored.doc_id ?? null, chunks: stored.chunks ?? 0 }));
      } catch (error) {
        fail(key, error);
      }
    },
    [put, fail, follow],
  );

  const queueUpload = useCallback(
    (key: number, file: File) => {
      files.current.set(key, file);
      uploads.current = uploads.current.then(() => (alive.current ? send(key, file) : undefined));
    },
    [send],
  );

  const addFiles = useCallback(
    (chosen: File[], collection: string) => {
      for (const file of chosen) queueUpload(add("file", file.name, collection, file.size, "waiting").key, file);
    },
    [add, queueUpload],
  );

  const retry = useCallback(
    (key: number) => {
      const file = files.current.get(key);
      if (!file) return;
      put(key, (i) => ({ ...i, stage: "waiting", error: null, jobId: null, progress: null }));
      queueUpload(key, file);
    },
    [put, queueUpload],
  );

  const cancel = useCallback(
    async (key: number) => {
      const item = put(key, (i) => ({ ...i, cancelling: true, error: null }));
      if (!item?.jobId) return;
      try {
        const { job } = await cancelJob(item.jobId, caller.current);
        put(key, (i) => fromJob(i, job));
      } catch (error) {
        put(key, (i) => ({ ...i, cancelling: false, error: `Not cancelled: ${errorText(error)}` }));
      }
    },
    [put],
  );

  const clearFinished = useCallback(() => {
    items.current = items.current.filter((item) => item.stage !== "done" && item.stage !== "cancelled" && item.stage !== "failed");
    rendered();
  }, []);

  return { items: items.current, addText, addFiles, retry, cancel, clearFinished };
}
