// Running searches so that only the newest answer is shown: each new search cancels the
// one before it (AbortController), and an answer that arrives after a newer search
// started is dropped even if it could not be cancelled.

import { useCallback, useRef, useState } from "react";
import { chunkVector, isAbort, search } from "./api.js";
import { buildSearchBody } from "./query.js";

// What the query is made of: the chunk of "more like this", text the server embeds, a
// suggested question with its stored vector, or text searched by keywords alone.
async function queryVector(state, context, signal) {
  if (state.likeDoc && state.likeChunk) {
    const like = { docId: state.likeDoc, chunkId: state.likeChunk, collection: state.collection };
    const found = await chunkVector(like, context.apiKey, signal);
    return { mode: "vector", vector: { space: found.space, values: found.vector } };
  }
  if (context.embedder) return { mode: "hybrid", vector: null };
  const sample = context.samples.find((s) => s.text === state.q.trim());
  if (sample) return { mode: "hybrid", vector: { space: context.sampleSpace, values: sample.embedding } };
  return { mode: "keywords", vector: null };
}

// "More like this" asks for one row more and leaves the chunk itself out (its own best
// match); later pages start one further on, past that chunk.
function withoutSource(body) {
  if (body.offset === 0) return { ...body, k: body.k + 1 };
  return { ...body, offset: body.offset + 1 };
}

export async function runQuery(state, context, signal) {
  const { mode, vector } = await queryVector(state, context, signal);
  let body = buildSearchBody(state, { vector, mode });
  if (mode === "vector") body = withoutSource(body);
  const started = performance.now();
  const response = await search(body, context.apiKey, signal);
  const roundTripMs = performance.now() - started;
  if (mode === "vector") {
    const rows = response.rows.filter((row) => row.chunk_id !== state.likeChunk);
    response.rows = rows.slice(0, Number(state.k));
  }
  return { response, body, mode, roundTripMs, state };
}

export function useSearch() {
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  const [loading, setLoading] = useState(false);
  const latest = useRef({ id: 0, controller: null });

  const run = useCallback(async (state, context) => {
    latest.current.controller?.abort();
    const controller = new AbortController();
    const id = latest.current.id + 1;
    latest.current = { id, controller };
    setLoading(true);
    try {
      const answer = await runQuery(state, context, controller.signal);
      if (latest.current.id !== id) return;
      setResult(answer);
      setError(null);
    } catch (caught) {
      if (isAbort(caught) || latest.current.id !== id) return;
      setResult(null);
      setError(caught);
    } finally {
      if (latest.current.id === id) setLoading(false);
    }
  }, []);

  return { result, error, loading, run, setError };
}
