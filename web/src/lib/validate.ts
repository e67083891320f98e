// What is wrong with the form, per control: the page's own checks before a request
// (with the server's limits), and the server's 400s placed beside the control whose
// request field they name.

import type { ApiError } from "../api/client";
import type { SearchState } from "./state";

// The ids of the controls an error can stand beside.
export type FieldId =
  | "q"
  | "profile"
  | "balance"
  | "w_rec"
  | "w_sig"
  | "recency"
  | "recency_days"
  | "fusion"
  | "k"
  | "max_per_source"
  | "diversity"
  | "collection"
  | "src_prefix"
  | "tags"
  | "after"
  | "before"
  | "filter";

export type FieldErrors = Partial<Record<FieldId, string>>;

export interface Limits {
  maxK: number;
}

const WHOLE = /^\s*\d+\s*$/;
const MIN_DAYS = 1e-6;
const MAX_DAYS = 1e9;
const MAX_PER_SOURCE = 1000;

function filterError(text: string): string | undefined {
  if (!text.trim()) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return `Not valid JSON: ${(error as Error).message}`;
  }
  const isObject = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed);
  return isObject ? undefined : 'The filter must be a JSON object, e.g. {"license": "PSF-2.0"}';
}

function daysError(state: SearchState): string | undefined {
  if (!state.recency) return undefined;
  const what = state.recency === "exponential" ? "The half-life" : "The scale";
  const days = Number(state.recencyDays);
  const valid = state.recencyDays.trim() !== "" && Number.isFinite(days);
  if (!valid || days < MIN_DAYS || days > MAX_DAYS) return `${what} must be a number of days above 0 (at most 1e9)`;
  return undefined;
}

export function formErrors(state: SearchState, { maxK }: Limits): FieldErrors {
  const errors: FieldErrors = {};
  const k = Number(state.k);
  if (!WHOLE.test(state.k) || k < 1 || k > maxK) errors.k = `Rows per page must be a whole number from 1 to ${maxK}`;
  const cap = state.maxPerSource;
  if (cap.trim() !== "" && (!WHOLE.test(cap) || Number(cap) > MAX_PER_SOURCE)) {
    errors.max_per_source = `Max per source must be a whole number up to ${MAX_PER_SOURCE} (0 = no limit)`;
  }
  const days = daysError(state);
  if (days) errors.recency_days = days;
  const filter = filterError(state.filter);
  if (filter) errors.filter = filter;
  if (state.after && state.before && state.after >= state.before) {
    errors.before = "Created before must be later than Created from";
  }
  return errors;
}

// Request field (the first part of the path an error message starts with) -> control.
const CONTROL_OF: Record<string, FieldId> = {
  query: "q",
  profile: "profile",
  hybrid_vector_weight: "balance",
  w_cos: "balance",
  w_lex: "balance",
  w_rec: "w_rec",
  w_sig: "w_sig",
  "recency.function": "recency",
  recency: "recency_days",
  fusion: "fusion",
  k: "k",
  max_per_source: "max_per_source",
  diversity_factor: "diversity",
  collection: "collection",
  src_prefix: "src_prefix",
  tags_any: "tags",
  created_after: "after",
  created_before: "before",
  filter: "filter",
};

// The control a server error is about, or null (it is shown above the results).
export function controlOf(error: ApiError): FieldId | null {
  if (error.status !== 400) return null;
  const path = error.field ?? error.message.match(/^[a-z_]+(?:\.[a-z_]+)?/)?.[0] ?? "";
  const [first = ""] = path.split(".");
  return CONTROL_OF[path] ?? CONTROL_OF[first] ?? null;
}
