// The rows the per-source cap (max_per_source) held back: for each source that filled
// its cap on the page, the same search narrowed to that source with no cap, less the
// rows already shown. Asked once the page's answer is on screen.

import { useEffect, useState } from "react";
import type { SearchRow } from "../api/client";
import { isAbort, search } from "../api/client";
import { sourceKey } from "./scores";
import type { Answer } from "./search";

export type HeldBack = Record<string, SearchRow[]>; // source -> rows held back

export function cappedSources(answer: Answer): string[] {
  const cap = answer.response.query_metadata.max_per_source;
  if (cap <= 0) return [];
  const counts = new Map<string, number>();
  for (const row of answer.rows) counts.set(sourceKey(row), (counts.get(sourceKey(row)) ?? 0) + 1);
  return [...counts].filter(([, count]) => count >= cap).map(([source]) => source);
}

async function heldBackOf(source: string, answer: Answer, maxK: number, caller: { apiKey: string; signal: AbortSignal }) {
  const row = answer.rows.find((r) => sourceKey(r) === source);
  const narrowed = row?.src ? { src_prefix: row.src } : { doc_ids: [row?.doc_id ?? source] };
  const body = { ...answer.body, ...narrowed, offset: 0, k: maxK, max_per_source: 0 };
  const shown = new Set(answer.rows.map((r) => r.chunk_id));
  const found = await search(body, caller);
  return found.rows.filter(
    (r) => sourceKey(r) === source && !shown.has(r.chunk_id) && r.chunk_id !== answer.state.likeChunk,
  );
}

export function useHeldBack(answer: Answer | null, maxK: number, apiKey: string): HeldBack {
  const [held, setHeld] = useState<{ id: number; rows: HeldBack }>({ id: -1, rows: {} });
  useEffect(() => {
    if (!answer) return undefined;
    const controller = new AbortController();
    const caller = { apiKey, signal: controller.signal };
    const sources = cappedSources(answer);
    Promise.all(sources.map(async (source) => [source, await heldBackOf(source, answer, maxK, caller)] as const))
      .then((found) => setHeld({ id: answer.id, rows: Object.fromEntries(found) }))
      .catch((error: unknown) => {
        if (!isAbort(error)) setHeld({ id: answer.id, rows: {} }); // the note is a nicety: no error for it
      });
    return () => controller.abort();
  }, [answer, maxK, apiKey]);
  return answer && held.id === answer.id ? held.rows : {};
}
