// The page's search state: its defaults, its form in the URL, and the request body it
// stands for. One state object drives the controls, the address bar and the API call.

export const DEFAULTS = {
  q: "",
  likeDoc: "",
  likeChunk: "",
  profile: "",
  balance: null,
  wRec: null,
  wSig: null,
  recency: "",
  recencyDays: 30,
  fusion: "weighted",
  k: 10,
  offset: 0,
  maxPerSource: null,
  diversity: 0,
  collection: "default",
  srcPrefix: "",
  tags: "",
  after: "",
  before: "",
  filter: "",
};

// state key -> [URL parameter, kind]; "weight" is a number in [0, 1] or null (the default).
const URL_FIELDS = {
  q: ["q", "text"],
  likeDoc: ["like_doc", "text"],
  likeChunk: ["like_chunk", "text"],
  profile: ["profile", "text"],
  balance: ["balance", "weight"],
  wRec: ["w_rec", "weight"],
  wSig: ["w_sig", "weight"],
  recency: ["recency", "text"],
  recencyDays: ["recency_days", "number"],
  fusion: ["fusion", "text"],
  k: ["k", "number"],
  offset: ["offset", "number"],
  maxPerSource: ["max_per_source", "count"],
  diversity: ["diversity", "number"],
  collection: ["collection", "text"],
  srcPrefix: ["src_prefix", "text"],
  tags: ["tags", "text"],
  after: ["after", "text"],
  before: ["before", "text"],
  filter: ["filter", "text"],
};

function parseValue(raw, kind) {
  if (kind === "text") return raw;
  const number = Number(raw);
  if (raw === "" || !Number.isFinite(number)) return undefined;
  if (kind === "weight") return Math.min(1, Math.max(0, number));
  if (kind === "count") return Math.max(0, Math.round(number));
  return number;
}

export function stateFromUrl(search) {
  const params = new URLSearchParams(search);
  const state = { ...DEFAULTS };
  for (const [key, [name, kind]] of Object.entries(URL_FIELDS)) {
    if (!params.has(name)) continue;
    const value = parseValue(params.get(name), kind);
    if (value !== undefined) state[key] = value;
  }
  return state;
}

export function urlFromState(state) {
  const params = new URLSearchParams();
  for (const [key, [name]] of Object.entries(URL_FIELDS)) {
    const value = state[key];
    if (value === null || value === DEFAULTS[key] || value === "") continue;
    params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

export const hasQuery = (state) => Boolean(state.q.trim() || (state.likeDoc && state.likeChunk));

const splitList = (text) =>
  text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

export class FormError extends Error {}

function parseFilter(text) {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new FormError(`filter: not valid JSON (${error.message})`);
  }
}

function recencyBody(state) {
  if (!state.recency) return undefined;
  const days = Number(state.recencyDays);
  if (state.recency === "exponential") return { function: "exponential", half_life_days: days };
  return { function: state.recency, scale_days: days };
}

// The body of /api/rag/search. `vector` ({space, values}) is the query vector when the
// page has one; `mode` says what the query has: "hybrid", "keywords" or "vector".
export function buildSearchBody(state, { vector = null, mode = "keywords" } = {}) {
  const body = {
    collection: state.collection,
    k: Number(state.k),
    offset: Number(state.offset),
    explain: true,
  };
  if (mode !== "vector" && state.q.trim()) body.query = state.q.trim();
  if (vector) {
    if (vector.space) body.embeddings = { [vector.space]: vector.values };
    else body.embedding = vector.values;
  }
  const optional = {
    profile: state.profile || undefined,
    hybrid_vector_weight: mode === "hybrid" && state.balance !== null ? state.balance : undefined,
    w_rec: state.wRec ?? undefined,
    w_sig: state.wSig ?? undefined,
    recency: recencyBody(state),
    fusion: state.fusion === "weighted" ? undefined : state.fusion,
    max_per_source: state.maxPerSource ?? undefined,
    diversity_factor: Number(state.diversity) > 0 ? Number(state.diversity) : undefined,
    src_prefix: state.srcPrefix.trim() || undefined,
    tags_any: splitList(state.tags).length ? splitList(state.tags) : undefined,
    created_after: state.after ? `${state.after}T00:00:00Z` : undefined,
    created_before: state.before ? `${state.before}T00:00:00Z` : undefined,
    filter: parseFilter(state.filter),
  };
  for (const [name, value] of Object.entries(optional)) {
    if (value !== undefined) body[name] = value;
  }
  return body;
}
