// Talking to the ragsearch HTTP API: fetch with a bearer key and a cancel signal, the
// API's error message, and the endpoints the page uses.

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

export async function callApi(path, { method = "GET", body, apiKey, signal } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
  const response = await fetch(path, {
    method,
    headers,
    signal,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const isAbort = (error) => error && error.name === "AbortError";

export const search = (body, apiKey, signal) =>
  callApi("/api/rag/search", { method: "POST", body, apiKey, signal });

export const explain = (body, apiKey, signal) =>
  callApi("/api/rag/explain", { method: "POST", body, apiKey, signal });

export const examples = (apiKey) => callApi("/api/rag/examples", { apiKey });

export const profiles = (apiKey) => callApi("/api/rag/profiles", { apiKey });

export const collections = (apiKey) => callApi("/api/rag/collections", { apiKey });

export const thumbsUp = (chunkId, collection, apiKey) =>
  callApi("/api/rag/signals", {
    method: "POST",
    body: { collection, updates: [{ chunk_id: chunkId, add_volume: 1 }] },
    apiKey,
  });

// A stored vector of a chunk and its space, for "more like this".
export async function chunkVector({ docId, chunkId, collection }, apiKey, signal) {
  const params = new URLSearchParams({ include_embeddings: "true", collection });
  const path = `/api/rag/documents/${encodeURIComponent(docId)}?${params}`;
  const doc = await callApi(path, { apiKey, signal });
  const chunk = doc.chunks.find((c) => c.chunk_id === chunkId);
  const spaces = chunk && chunk.embeddings ? Object.keys(chunk.embeddings) : [];
  if (!spaces.length) throw new Error(`chunk ${chunkId} has no stored vector`);
  return { space: spaces[0], vector: chunk.embeddings[spaces[0]], text: chunk.chunk };
}

const shellQuote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;

// The request as a curl command line that returns the same rows.
export function curlCommand(path, body, apiKey, origin) {
  const parts = [`curl -s -X POST ${shellQuote(origin + path)}`];
  parts.push(`-H 'Content-Type: application/json'`);
  if (apiKey) parts.push(`-H ${shellQuote(`Authorization: Bearer ${apiKey}`)}`);
  parts.push(`-d ${shellQuote(JSON.stringify(body))}`);
  return parts.join(" \\\n  ");
}
