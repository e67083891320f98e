// "Useful" as a toggle: the chunks this tab has marked (per collection, kept in
// sessionStorage), each mark one click of volume on the server; unmarking takes it back.

import { useCallback, useState } from "react";
import { addVolume } from "../api/client";

const STORAGE = "ragsearch.useful";

type Marks = Record<string, string[]>; // collection -> chunk ids

function load(): Marks {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE) || "{}");
    return stored && typeof stored === "object" ? (stored as Marks) : {};
  } catch {
    return {};
  }
}

export function useVotes(apiKey: string) {
  const [marks, setMarks] = useState<Marks>(load);

  const isMarked = useCallback(
    (collection: string, chunkId: string) => (marks[collection] ?? []).includes(chunkId),
    [marks],
  );

  // Mark or unmark; the server's change first, the mark only once it is stored.
  const toggle = useCallback(
    async (collection: string, chunkId: string) => {
      const marked = (load()[collection] ?? []).includes(chunkId);
      await addVolume(chunkId, collection, marked ? -1 : 1, { apiKey });
      const current = load();
      const ids = (current[collection] ?? []).filter((id) => id !== chunkId);
      const next = { ...current, [collection]: marked ? ids : [...ids, chunkId] };
      sessionStorage.setItem(STORAGE, JSON.stringify(next));
      setMarks(next);
    },
    [apiKey],
  );

  return { isMarked, toggle };
}
