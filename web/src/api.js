// Talking to the ragsearch HTTP API: request bodies, fetch with a bearer key, errors.

export const RECENCY_FUNCTIONS = ["inverse", "exponential", "gaussian", "linear"];

function splitList(text) {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

// The body of POST /api/rag/search for the form's state and a query vector; the vector
// goes in `embedding` (default space) unless another space is named.
export function buildSearchBody(form, vector, space = null) {
  const body = {
    ...(space ? { embeddings: { [space]: vector } } : { embedding: vector }),
    k: Number(form.k),
    w_cos: Number(form.wCos),
    w_rec: Number(form.wRec),
    w_sig: Number(form.wSig),
  };
  if (form.recency !== "inverse") {
    const days = Number(form.recencyDays);
    body.recency =
      form.recency === "exponential"
        ? { function: "exponential", half_life_days: days }
        : { function: form.recency, scale_days: days };
  }
  if (form.srcPrefix.trim()) body.src_prefix = form.srcPrefix.trim();
  const docIds = splitList(form.docIds);
  if (docIds.length) body.doc_ids = docIds;
  const tags = splitList(form.tagsAny);
  if (tags.length) body.tags_any = tags;
  return body;
}

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

export async function callApi(path, { method = "GET", body, apiKey } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const search = (body, apiKey) =>
  callApi("/api/rag/search", { method: "POST", body, apiKey });

export const examples = (apiKey) => callApi("/api/rag/examples", { apiKey });

// A stored vector of a chunk and its space, for "more like this".
export async function chunkVector(docId, chunkId, apiKey) {
  const doc = await callApi(
    `/api/rag/documents/${encodeURIComponent(docId)}?include_embeddings=true`,
    { apiKey },
  );
  const chunk = doc.chunks.find((c) => c.chunk_id === chunkId);
  const spaces = chunk && chunk.embeddings ? Object.keys(chunk.embeddings) : [];
  if (!spaces.length) throw new Error(`chunk ${chunkId} has no stored vector`);
  return { space: spaces[0], vector: chunk.embeddings[spaces[0]] };
}
