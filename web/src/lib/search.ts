// One search as the page runs it: what the query is made of, the request (with one row
// more than shown, to know whether a next page exists), and the rows to show.

import type { SearchAnswer, SearchBody, SearchRow } from "../api/client";
import { chunkVector, search } from "../api/client";
import type { ServerInfo } from "./server";
import type { Mode, QueryVector, SearchState } from "./state";
import { buildSearchBody, liking } from "./state";

export interface Answer {
  id: number;
  state: SearchState;
  // The request the rows stand for (Copy as curl, Explain): without the page's extra row.
  body: SearchBody;
  response: SearchAnswer;
  rows: SearchRow[]; // the rows shown (the chunk of "more like this" left out)
  hasNext: boolean;
  mode: Mode;
  roundTripMs: number;
}

interface Context {
  info: ServerInfo;
  apiKey: string;
  signal: AbortSignal;
}

// The chunk of "more like this", text the server embeds, a suggested question with its
// stored vector, or text searched by keywords alone.
async function queryVector(state: SearchState, { info, apiKey, signal }: Context) {
  if (liking(state)) {
    const like = { docId: state.likeDoc, chunkId: state.likeChunk, collection: state.collection };
    const found = await chunkVector(like, { apiKey, signal });
    return { mode: "vector" as const, vector: { space: found.space, values: found.values } };
  }
  if (info.embedder) return { mode: "hybrid" as const, vector: null };
  const sample = info.samples.find((s) => s.text === state.q.trim());
  if (sample) {
    const vector: QueryVector = { space: info.sampleSpace, values: sample.embedding };
    return { mode: "hybrid" as const, vector };
  }
  return { mode: "keywords" as const, vector: null };
}

// "More like this" leaves the chunk itself out (its own best match): the first page asks
// for one row more, later pages start one further on.
function withoutSource(body: SearchBody, maxK: number): SearchBody {
  const k = body.k ?? 0;
  const offset = body.offset ?? 0;
  return offset === 0 ? { ...body, k: Math.min(k + 1, maxK) } : { ...body, offset: offset + 1 };
}

// Whether rows follow the page's, when k left no room to ask for one more row with them:
// a request of its own, unless the next page starts past the deepest offset served.
async function rowsAfter(body: SearchBody, context: Context): Promise<boolean> {
  const start = (body.offset ?? 0) + (body.k ?? 0);
  if (start > context.info.defaults.max_offset) return false;
  const next = await search({ ...body, k: 1, offset: start, explain: false }, context);
  return next.rows.length > 0;
}

export async function runQuery(state: SearchState, context: Context, id: number): Promise<Answer> {
  const { max_k: maxK } = context.info.defaults;
  const { mode, vector } = await queryVector(state, context);
  let body = buildSearchBody(state, { vector, mode });
  if (mode === "vector") body = withoutSource(body, maxK);
  const k = body.k ?? 0;
  const peeked = k + 1 <= maxK;
  const started = performance.now();
  const response = await search(peeked ? { ...body, k: k + 1 } : body, context);
  const roundTripMs = performance.now() - started;
  const kept = response.rows.filter((row) => row.chunk_id !== state.likeChunk);
  const shown = Number(state.k);
  const hasNext = peeked ? kept.length > shown : await rowsAfter(body, context);
  return { id, state, body, response, rows: kept.slice(0, shown), hasNext, mode, roundTripMs };
}
