// Reading a row's score: the parts its bar is drawn from (weighted sum or reciprocal
// rank fusion), how well it answers the question, and the source it counts against.

import type { SearchRow, Weights } from "../api/client";

export const COMPONENTS = [
  { key: "sem", label: "semantic", color: "#2f6fb0", weight: "w_cos" },
  { key: "lex", label: "keywords", color: "#e09f3e", weight: "w_lex" },
  { key: "rec", label: "recency", color: "#4a9d6b", weight: "w_rec" },
  { key: "sig", label: "signal", color: "#9b5fb0", weight: "w_sig" },
] as const;

export type ComponentKey = (typeof COMPONENTS)[number]["key"];

export interface BarPart {
  key: ComponentKey;
  label: string;
  color: string;
  share: number; // of the bar's full length, 0..1
  text: string; // how the part was computed
}

const weightOf = (weights: Weights, key: (typeof COMPONENTS)[number]["weight"]) => weights[key] ?? 0;
const fixed = (value: number, digits = 3) => value.toFixed(digits);

// Weighted sum: each component's weighted value, the parts adding up to the score (a
// full bar is a score of 1).
function weightedParts(row: SearchRow): BarPart[] {
  return COMPONENTS.flatMap(({ key, label, color }) => {
    const part = row.components?.[key];
    if (!part) return [];
    const text = `${label}: ${fixed(part.raw)} × weight = ${fixed(part.weighted)}`;
    return [{ key, label, color, share: Math.max(0, part.weighted), text }];
  });
}

// Reciprocal rank fusion: each component adds w / (rrf_k + its rank); a full bar is
// rank 1 in every ranking. A chunk past a ranking's window gets nothing from it.
function rrfParts(row: SearchRow, weights: Weights, rrfK: number): BarPart[] {
  const best = COMPONENTS.reduce((sum, c) => sum + weightOf(weights, c.weight) / (rrfK + 1), 0);
  return COMPONENTS.flatMap(({ key, label, color, weight }) => {
    const w = weightOf(weights, weight);
    if (w <= 0) return [];
    const rank = row.ranks?.[key];
    if (rank === undefined) return [{ key, label, color, share: 0, text: `${label}: not ranked (past its window)` }];
    const value = w / (rrfK + rank);
    const text = `${label}: rank ${rank}, ${fixed(w, 2)} / (${rrfK} + ${rank}) = ${value.toFixed(5)}`;
    return [{ key, label, color, share: best > 0 ? value / best : 0, text }];
  });
}

export function barParts(row: SearchRow, weights: Weights, fusion: string, rrfK: number): BarPart[] {
  return fusion === "rrf" ? rrfParts(row, weights, rrfK) : weightedParts(row);
}

// How well a row answers the question, 0..1: its keyword and semantic parts as weighted
// (the server's rule for a low-confidence answer); null when the search weighs neither.
export function relevance(row: SearchRow, weights: Weights): number | null {
  const wCos = weights.w_cos;
  const wLex = weights.w_lex ?? 0;
  if (wCos + wLex <= 0) return null;
  const sem = row.components?.sem?.raw ?? 0;
  const lex = row.components?.lex?.raw ?? row.lex ?? 0;
  return (wCos * sem + wLex * lex) / (wCos + wLex);
}

// The best relevance of a first page whose rows all answer poorly, or null when one
// answers well enough (or the page is not the first, or weighs no relevance at all).
export function weakBest(rows: SearchRow[], weights: Weights, offset: number, floor: number): number | null {
  if (offset > 0 || !rows.length) return null;
  const scores = rows.map((row) => relevance(row, weights));
  if (scores.some((score) => score === null)) return null;
  const best = Math.max(...(scores as number[]));
  return best < floor ? best : null;
}

// What max_per_source counts rows by: the source URL, or the document when it has none.
export const sourceKey = (row: Pick<SearchRow, "src" | "doc_id">) => row.src || row.doc_id;
