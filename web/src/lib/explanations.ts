// "Explain rank" under a row: where the chunk ranks for the search on screen, asked once
// per chunk and answer. A new answer drops the explanations of the one before it.

import { useCallback, useState } from "react";
import type { ExplainAnswer } from "../api/client";
import { explain } from "../api/client";
import type { Answer } from "./search";

export type Explanation = { status: "loading" } | { status: "done"; answer: ExplainAnswer } | { status: "error"; message: string };

export async function explainFor(answer: Answer, chunkId: string, apiKey: string): Promise<Explanation> {
  try {
    return { status: "done", answer: await explain(answer.body, chunkId, { apiKey }) };
  } catch (error) {
    return { status: "error", message: (error as Error).message };
  }
}

export function useExplanations(answer: Answer | null, apiKey: string) {
  const [state, setState] = useState<{ id: number; byChunk: Record<string, Explanation> }>({ id: -1, byChunk: {} });

  const toggle = useCallback(
    async (chunkId: string) => {
      if (!answer) return;
      const shown = state.id === answer.id && state.byChunk[chunkId];
      const without = (byChunk: Record<string, Explanation>) =>
        Object.fromEntries(Object.entries(byChunk).filter(([key]) => key !== chunkId));
      if (shown) {
        setState((current) => ({ ...current, byChunk: without(current.byChunk) }));
        return;
      }
      // Answers only grow newer: an explanation for an older one is dropped.
      const put = (explanation: Explanation) =>
        setState((current) => {
          if (current.id > answer.id) return current;
          const byChunk = current.id === answer.id ? current.byChunk : {};
          return { id: answer.id, byChunk: { ...byChunk, [chunkId]: explanation } };
        });
      put({ status: "loading" });
      put(await explainFor(answer, chunkId, apiKey));
    },
    [answer, apiKey, state],
  );

  const current = answer && state.id === answer.id ? state.byChunk : {};
  return { explanations: current, toggle };
}
