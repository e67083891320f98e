// The page's search state: its defaults, its form in the URL, and the request body it
// stands for. One state object drives the controls, the address bar and the API call.
// Typed fields (k, the recency days, max per source) keep the text as typed, so that
// a URL reproduces an invalid entry and its message, not a silently corrected search.

import type { SearchBody } from "../api/client";

export type Fusion = "weighted" | "rrf";
// What the query is made of: text with a vector ("hybrid"), text alone ("keywords"), or
// a stored chunk's vector alone ("vector": more like this).
export type Mode = "hybrid" | "keywords" | "vector";

export interface SearchState {
  q: string;
  likeDoc: string;
  likeChunk: string;
  profile: string;
  balance: number | null; // null: the server's choice
  wRec: number | null;
  wSig: number | null;
  recency: string; // "": the server's default decay
  recencyDays: string;
  fusion: Fusion;
  k: string;
  offset: number;
  maxPerSource: string; // "": the server's default
  diversity: number;
  collection: string;
  srcPrefix: string;
  tags: string;
  after: string;
  before: string;
  filter: string;
}

export const DEFAULTS: SearchState = {
  q: "",
  likeDoc: "",
  likeChunk: "",
  profile: "",
  balance: null,
  wRec: null,
  wSig: null,
  recency: "",
  recencyDays: "30",
  fusion: "weighted",
  k: "10",
  offset: 0,
  maxPerSource: "",
  diversity: 0,
  collection: "default",
  srcPrefix: "",
  tags: "",
  after: "",
  before: "",
  filter: "",
};

type Kind = "text" | "weight" | "number" | "offset";
type Key = keyof SearchState;

// state key -> [URL parameter, kind]; a weight is a number in [0, 1] or null (the default).
const URL_FIELDS: [Key, string, Kind][] = [
  ["q", "q", "text"],
  ["likeDoc", "like_doc", "text"],
  ["likeChunk", "like_chunk", "text"],
  ["profile", "profile", "text"],
  ["balance", "balance", "weight"],
  ["wRec", "w_rec", "weight"],
  ["wSig", "w_sig", "weight"],
  ["recency", "recency", "text"],
  ["recencyDays", "recency_days", "text"],
  ["fusion", "fusion", "text"],
  ["k", "k", "text"],
  ["offset", "offset", "offset"],
  ["maxPerSource", "max_per_source", "text"],
  ["diversity", "diversity", "number"],
  ["collection", "collection", "text"],
  ["srcPrefix", "src_prefix", "text"],
  ["tags", "tags", "text"],
  ["after", "after", "text"],
  ["before", "before", "text"],
  ["filter", "filter", "text"],
];

function parseValue(raw: string, kind: Kind): string | number | undefined {
  if (kind === "text") return raw;
  const number = Number(raw);
  if (raw === "" || !Number.isFinite(number)) return undefined;
  if (kind === "weight" || kind === "number") return Math.min(1, Math.max(0, number));
  return Math.max(0, Math.round(number));
}

export function stateFromUrl(search: string): SearchState {
  const params = new URLSearchParams(search);
  const state: Record<string, unknown> = { ...DEFAULTS };
  for (const [key, name, kind] of URL_FIELDS) {
    const raw = params.get(name);
    if (raw === null) continue;
    const value = parseValue(raw, kind);
    if (value !== undefined) state[key] = value;
  }
  if (state.fusion !== "rrf") state.fusion = "weighted";
  return state as unknown as SearchState;
}

// Days mean something only with a decay chosen: without one they stay out of the URL.
const unused = (state: SearchState, key: Key) => key === "recencyDays" && !state.recency;

export function urlFromState(state: SearchState): string {
  const params = new URLSearchParams();
  for (const [key, name] of URL_FIELDS) {
    const value = state[key];
    if (value === null || value === DEFAULTS[key] || unused(state, key)) continue;
    if (value === "" && DEFAULTS[key] === "") continue;
    params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

export const liking = (state: SearchState) => Boolean(state.likeDoc && state.likeChunk);

export const hasQuery = (state: SearchState) => Boolean(state.q.trim() || liking(state));

const splitList = (text: string) =>
  text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

function recencyBody(state: SearchState): SearchBody["recency"] {
  if (!state.recency) return undefined;
  const days = Number(state.recencyDays);
  if (state.recency === "exponential") return { function: "exponential", half_life_days: days };
  return { function: state.recency as "inverse" | "gaussian" | "linear", scale_days: days };
}

export interface QueryVector {
  space: string | null; // null: the default space
  values: number[];
}

// The body of /api/rag/search for a state that passed validation (lib/validate.ts).
export function buildSearchBody(
  state: SearchState,
  { vector = null, mode = "keywords" }: { vector?: QueryVector | null; mode?: Mode } = {},
): SearchBody {
  const body: SearchBody = {
    collection: state.collection,
    k: Number(state.k),
    offset: state.offset,
    explain: true,
  };
  if (mode !== "vector" && state.q.trim()) body.query = state.q.trim();
  if (vector) {
    if (vector.space) body.embeddings = { [vector.space]: vector.values };
    else body.embedding = vector.values;
  }
  const tags = splitList(state.tags);
  const optional: Partial<SearchBody> = {
    profile: state.profile || undefined,
    hybrid_vector_weight: mode === "hybrid" && state.balance !== null ? state.balance : undefined,
    w_rec: state.wRec ?? undefined,
    w_sig: state.wSig ?? undefined,
    recency: recencyBody(state),
    fusion: state.fusion === "weighted" ? undefined : state.fusion,
    max_per_source: state.maxPerSource.trim() === "" ? undefined : Number(state.maxPerSource),
    diversity_factor: state.diversity > 0 ? state.diversity : undefined,
    src_prefix: state.srcPrefix.trim() || undefined,
    tags_any: tags.length ? tags : undefined,
    created_after: state.after ? `${state.after}T00:00:00Z` : undefined,
    created_before: state.before ? `${state.before}T00:00:00Z` : undefined,
    filter: state.filter.trim() ? JSON.parse(state.filter) : undefined,
  };
  for (const [name, value] of Object.entries(optional)) {
    if (value !== undefined) (body as Record<string, unknown>)[name] = value;
  }
  return body;
}
