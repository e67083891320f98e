// The ragsearch HTTP API, called through the types generated from its OpenAPI document
// (schema.d.ts, by scripts/generate-api-types.sh): a changed path, request or response
// shape fails the type check of the page, not its users.

import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

type Schemas = components["schemas"];
export type SearchBody = Schemas["SearchRequest"];
export type SearchAnswer = Schemas["SearchResponse"];
export type SearchRow = Schemas["SearchRow"];
export type Weights = Schemas["Weights"];
export type Component = Schemas["Component"];
export type Classification = Schemas["ClassificationOut"];
export type ExplainAnswer = Schemas["ExplainResponse"];
export type SearchDefaults = Schemas["SearchDefaults"];
export type Examples = Schemas["ExamplesResponse"];
export type Profile = Schemas["ProfileOut"];
export type Collection = Schemas["Collection"];
export type ErrorBody = Schemas["ErrorBody"];
export type FacetBody = Schemas["FacetRequest"];
export type FacetAnswer = Schemas["FacetsResponse"];
export type Facet = Schemas["Facet"];
export type DocumentBody = Schemas["DocumentIn"];
export type Ingested = Schemas["IngestResponse"];
export type Uploaded = Schemas["UploadResponse"];
export type Job = Schemas["Job"];
export type JobAnswer = Schemas["JobResponse"];

export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody | null;
  // The request field the error names, when the server says (BadRequest's `field`).
  readonly field: string | null;

  constructor(status: number, body: ErrorBody | null) {
    // Some errors are a code with the sentence beside it ({"error": "invalid_space", "message": ...}).
    super(typeof body?.message === "string" ? body.message : (body?.error ?? `HTTP ${status}`));
    this.status = status;
    this.body = body;
    this.field = typeof body?.field === "string" ? body.field : null;
  }
}

export const isAbort = (error: unknown): boolean => error instanceof Error && error.name === "AbortError";

// fetch looked up at each call (not when the client is made), so that tests can replace it.
const api = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? "",
  fetch: (request) => globalThis.fetch(request),
});

export interface Caller {
  apiKey: string;
  signal?: AbortSignal;
}

const options = ({ apiKey, signal }: Caller) => ({
  headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
  signal,
});

function errorBody(error: unknown): ErrorBody | null {
  return error && typeof error === "object" && "error" in error ? (error as ErrorBody) : null;
}

async function answer<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw new ApiError(response.status, errorBody(error));
  return data;
}

export const search = (body: SearchBody, caller: Caller) =>
  answer(api.POST("/api/rag/search", { body, ...options(caller) }));

export const explain = (body: SearchBody, chunkId: string, caller: Caller) =>
  answer(api.POST("/api/rag/explain", { body: { ...body, chunk_id: chunkId }, ...options(caller) }));

export const facets = (body: FacetBody, caller: Caller) =>
  answer(api.POST("/api/rag/facets", { body, ...options(caller) }));

export const searchDefaults = (caller: Caller) => answer(api.GET("/api/rag/search/defaults", options(caller)));

export const examples = (caller: Caller) => answer(api.GET("/api/rag/examples", options(caller)));

export const profiles = (caller: Caller) => answer(api.GET("/api/rag/profiles", options(caller)));

export const collections = (caller: Caller) => answer(api.GET("/api/rag/collections", options(caller)));

// A click on "useful" adds one to the chunk's volume; taking it back subtracts it again.
export const addVolume = (chunkId: string, collection: string, delta: 1 | -1, caller: Caller) =>
  answer(
    api.POST("/api/rag/signals", {
      body: { collection, updates: [{ chunk_id: chunkId, add_volume: delta }] },
      ...options(caller),
    }),
  );

export interface ChunkVector {
  space: string;
  values: number[];
}

// A stored vector of a chunk and its space, for "more like this".
export async function chunkVector(
  { docId, chunkId, collection }: { docId: string; chunkId: string; collection: string },
  caller: Caller,
): Promise<ChunkVector> {
  const doc = await answer(
    api.GET("/api/rag/documents/{doc_id}", {
      params: { path: { doc_id: docId }, query: { collection, include_embeddings: true } },
      ...options(caller),
    }),
  );
  const chunk = doc.chunks.find((c) => c.chunk_id === chunkId);
  // the first dense vector (a number[]); sparse and multivector values are not used here
  const dense = Object.entries(chunk?.embeddings ?? {}).find(
    (entry): entry is [string, number[]] =>
      Array.isArray(entry[1]) && typeof entry[1][0] === "number",
  );
  if (!dense) throw new Error(`chunk ${chunkId} has no stored dense vector`);
  const [space, values] = dense;
  return { space, values };
}

// Documents in. The page always asks for a job (?async=true): a request answers at once,
// however long the embedding takes, and the job's progress can be shown as it goes.
export const addDocument = (body: DocumentBody, caller: Caller): Promise<Ingested | JobAnswer> =>
  answer(api.POST("/api/rag/documents", { body, params: { query: { async: true } }, ...options(caller) }));

export const readDocument = (docId: string, collection: string, caller: Caller) =>
  answer(api.GET("/api/rag/documents/{doc_id}", { params: { path: { doc_id: docId }, query: { collection } }, ...options(caller) }));

export const readJob = (id: number, caller: Caller) =>
  answer(api.GET("/api/rag/jobs/{job_id}", { params: { path: { job_id: id } }, ...options(caller) }));

export const cancelJob = (id: number, caller: Caller) =>
  answer(api.POST("/api/rag/jobs/{job_id}/cancel", { params: { path: { job_id: id } }, ...options(caller) }));

type UploadPath = paths["/api/rag/documents/upload"]["post"];
type UploadAnswer = UploadPath["responses"][200 | 202]["content"]["application/json"];

export interface UploadCaller extends Caller {
  onProgress: (sent: number, total: number) => void;
}

// One file sent as a multipart upload, through XMLHttpRequest: fetch cannot report how
// much of a request body has been sent.
export function uploadFile(file: File, collection: string, caller: UploadCaller): Promise<UploadAnswer> {
  const params: UploadPath["parameters"]["query"] = { collection, async: true };
  const query = new URLSearchParams(Object.entries(params ?? {}).map(([name, value]) => [name, String(value)]));
  const form = new FormData();
  form.append("files", file, file.name);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", `/api/rag/documents/upload?${query}`);
    if (caller.apiKey) request.setRequestHeader("Authorization", `Bearer ${caller.apiKey}`);
    request.responseType = "json";
    request.upload.onprogress = (event) => caller.onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onload = () => {
      const body: unknown = request.response;
      if (request.status >= 200 && request.status < 300 && body && typeof body === "object") resolve(body as UploadAnswer);
      else reject(new ApiError(request.status, errorBody(body)));
    };
    request.onerror = () => reject(new Error("the upload did not reach the server (network error)"));
    request.onabort = () => reject(new DOMException("the upload was stopped", "AbortError"));
    caller.signal?.addEventListener("abort", () => request.abort(), { once: true });
    request.send(form);
  });
}

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

// The request as a curl command line that returns the same rows.
export function curlCommand(path: string, body: SearchBody, apiKey: string, origin: string): string {
  const parts = [`curl -s -X POST ${shellQuote(origin + path)}`, `-H 'Content-Type: application/json'`];
  if (apiKey) parts.push(`-H ${shellQuote(`Authorization: Bearer ${apiKey}`)}`);
  parts.push(`-d ${shellQuote(JSON.stringify(body))}`);
  return parts.join(" \\\n  ");
}
