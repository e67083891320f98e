// Running searches so that only the newest answer is shown: each new search cancels the
// one before it (AbortController), and an answer that arrives after a newer search
// started is dropped even if it could not be cancelled. A failed search keeps the last
// good answer on screen beside its error.

import { useCallback, useRef, useState } from "react";
import { isAbort } from "../api/client";
import type { Answer } from "./search";
import { runQuery } from "./search";
import type { ServerInfo } from "./server";
import type { SearchState } from "./state";

export function useSearch() {
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [loading, setLoading] = useState(false);
  const latest = useRef<{ id: number; controller: AbortController | null }>({ id: 0, controller: null });

  const run = useCallback(async (state: SearchState, info: ServerInfo, apiKey: string) => {
    latest.current.controller?.abort();
    const controller = new AbortController();
    const id = latest.current.id + 1;
    latest.current = { id, controller };
    setLoading(true);
    try {
      const found = await runQuery(state, { info, apiKey, signal: controller.signal }, id);
      if (latest.current.id !== id) return;
      setAnswer(found);
      setError(null);
    } catch (caught) {
      if (isAbort(caught) || latest.current.id !== id) return;
      setError(caught instanceof Error ? caught : new Error(String(caught)));
    } finally {
      if (latest.current.id === id) setLoading(false);
    }
  }, []);

  // Back to the page before any search (Back past the first search).
  const clear = useCallback(() => {
    latest.current.controller?.abort();
    latest.current = { id: latest.current.id + 1, controller: null };
    setAnswer(null);
    setError(null);
    setLoading(false);
  }, []);

  return { answer, error, loading, run, clear, setError };
}
