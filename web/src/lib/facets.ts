// Facet counts for the search on screen: how many chunks (not only the rows shown) hold
// each tag, source and collection (POST /api/rag/facets), and what a click on one does.
//
// What is counted: the chunks that hold a word of the question and pass the filters. A
// search with vectors ranks every chunk that passes the filters, so counting what it ranks
// from would say nothing of the question; the counts are asked as for a keyword-only
// search instead (hybrid_vector_weight 0, no vector). When no chunk holds a word of the
// question (or there is no question: more like this), every chunk that passes counts.
//
// Tags are counted as if no tag were chosen, so that each count says how many chunks hold
// that tag under the other filters, and a click adds the tag to the "any of" list or takes
// it out again. Sources and collections are counted under every filter: a click narrows
// the search to that source (src_prefix) or moves it to that collection.

import { useEffect, useState } from "react";
import type { Facet, FacetAnswer, FacetBody, SearchBody } from "../api/client";
import { facets, isAbort } from "../api/client";
import type { Answer } from "./search";
import type { SearchState } from "./state";

export const FACET_LIMIT = 8;

export interface FacetCounts {
  tags: Facet;
  src: Facet;
  collection: Facet;
  chunks: number; // the chunks counted, under every filter
  exact: boolean;
  keywordMatches: boolean; // only the chunks holding a word of the question counted
  noWordMatched: boolean; // the question has words, but no chunk holds one
}

// The body the counts are asked with: the search's filters and question, ranked by
// keywords alone (the fields that only rank or page rows are left out).
export function countedBody(body: SearchBody): FacetBody {
  const { collection, doc_ids, src_prefix, tags_any, tags_all, created_after, created_before, filter, query } = body;
  const counted: FacetBody = { collection, doc_ids, src_prefix, tags_any, tags_all, created_after, created_before, filter };
  if (query) Object.assign(counted, { query, hybrid_vector_weight: 0 });
  for (const [name, value] of Object.entries(counted)) {
    if (value === undefined) delete (counted as Record<string, unknown>)[name];
  }
  return counted;
}

// The requests for a body: one, or two when tags are chosen (tags counted without them).
export function facetRequests(body: FacetBody): FacetBody[] {
  const base: FacetBody = { ...body, limit: FACET_LIMIT };
  if (!body.tags_any?.length) return [{ ...base, fields: ["tags", "src", "collection"] }];
  const untagged: FacetBody = { ...base, fields: ["tags"] };
  delete untagged.tags_any;
  return [untagged, { ...base, fields: ["src", "collection"] }];
}

export function mergeCounts(answers: FacetAnswer[]): FacetCounts {
  const whole = answers[answers.length - 1]; // counted under every filter
  if (!whole) throw new Error("no facet answer");
  const find = (field: string) => {
    const found = answers.find((a) => a.facets[field])?.facets[field];
    if (!found) throw new Error(`the facet answer has no ${field}`);
    return found;
  };
  return {
    tags: find("tags"),
    src: find("src"),
    collection: find("collection"),
    chunks: whole.chunks,
    exact: answers.every((a) => a.exact),
    keywordMatches: whole.counted === "keyword_matches",
    noWordMatched: false,
  };
}

type Ask = (body: FacetBody) => Promise<FacetAnswer>;

// The counts for a search body: over the chunks holding a word of the question, or, when
// none does, over every chunk that passes the filters.
export async function countFacets(body: SearchBody, ask: Ask): Promise<FacetCounts> {
  const counted = countedBody(body);
  const found = mergeCounts(await Promise.all(facetRequests(counted).map(ask)));
  if (!found.keywordMatches || found.chunks > 0) return found;
  const { query: _, hybrid_vector_weight: __, ...filtered } = counted;
  const every = mergeCounts(await Promise.all(facetRequests(filtered).map(ask)));
  return { ...every, noWordMatched: true };
}

const splitTags = (text: string) =>
  text
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean);

export const chosenTags = (state: SearchState) => splitTags(state.tags);

// The state after a click on a tag: added to the "any of" list, or taken out of it.
export function withTag(state: SearchState, tag: string): SearchState {
  const tags = chosenTags(state);
  const next = tags.includes(tag) ? tags.filter((t) => t !== tag) : [...tags, tag];
  return { ...state, tags: next.join(", "), offset: 0 };
}

// After a click on a source: narrowed to it, or back to every source.
export const withSource = (state: SearchState, src: string): SearchState => ({
  ...state,
  srcPrefix: state.srcPrefix === src ? "" : src,
  offset: 0,
});

// After a click on a collection: the same search there ("more like this" names a chunk of
// the collection left, so it ends).
export const inCollection = (state: SearchState, collection: string): SearchState => ({
  ...state,
  collection,
  likeDoc: "",
  likeChunk: "",
  offset: 0,
});

export interface FacetState {
  counts: FacetCounts | null; // the last counts that arrived
  failed: string; // why the last counts could not be had ("" when they were)
  loading: boolean; // the counts shown are not yet those of the answer on screen
}

// The counts for each answer, asked once it is on screen; the last ones stay shown (marked
// loading) until the next arrive, and an older answer's arriving late are dropped.
export function useFacets(answer: Answer | null, apiKey: string): FacetState {
  const [found, setFound] = useState<{ id: number; counts: FacetCounts | null; failed: string }>({
    id: -1,
    counts: null,
    failed: "",
  });
  useEffect(() => {
    if (!answer) return undefined;
    const controller = new AbortController();
    const caller = { apiKey, signal: controller.signal };
    countFacets(answer.body, (body) => facets(body, caller))
      .then((counts) => setFound({ id: answer.id, counts, failed: "" }))
      .catch((error: unknown) => {
        if (!isAbort(error)) setFound({ id: answer.id, counts: null, failed: (error as Error).message });
      });
    return () => controller.abort();
  }, [answer, apiKey]);
  return { counts: found.counts, failed: found.failed, loading: Boolean(answer) && found.id !== answer?.id };
}
