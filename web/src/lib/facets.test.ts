import { describe, expect, it } from "vitest";
import type { FacetAnswer } from "../api/client";
import { countFacets, countedBody, facetRequests, inCollection, mergeCounts, withSource, withTag } from "./facets";
import type { SearchState } from "./state";
import { DEFAULTS } from "./state";

const state = (patch: Partial<SearchState>): SearchState => ({ ...DEFAULTS, ...patch });
const facet = (value: string, chunks: number, exact = true) => ({
  values: [{ value, chunks }],
  distinct: 1,
  exact,
  refines: "",
});

const answer = (patch: Partial<FacetAnswer>): FacetAnswer => ({
  ok: true, collection: "default", counted: "filtered", chunks: 0, exact: true,
  max_chunks: 100000, facets: {}, took_ms: 1, ...patch,
}); // prettier-ignore

describe("what is counted", () => {
  it("the question's keyword matches under the search's filters, whatever ranks the rows", () => {
    const body = { query: "json", embedding: [0.1, 0.2], k: 10, offset: 10, explain: true, profile: "auto",
                   hybrid_vector_weight: 0.7, w_rec: 0.2, tags_any: ["a"], filter: { lang: "en" }, collection: "c" }; // prettier-ignore
    expect(countedBody(body)).toEqual({ query: "json", hybrid_vector_weight: 0, tags_any: ["a"], filter: { lang: "en" }, collection: "c" });
    expect(countedBody({ embedding: [0.1], collection: "c" })).toEqual({ collection: "c" });
  });

  it("every chunk that passes the filters when no chunk holds a word of the question", async () => {
    const asked: object[] = [];
    const every = { tags: facet("csv", 9), src: facet("a", 9), collection: facet("default", 9) };
    const counts = await countFacets({ query: "qwxz", src_prefix: "a" }, async (body) => {
      asked.push(body);
      return body.query ? answer({ counted: "keyword_matches", facets: { tags: facet("x", 0), src: facet("a", 0), collection: facet("d", 0) } })
                        : answer({ chunks: 9, facets: every }); // prettier-ignore
    });
    expect(asked).toEqual([
      { query: "qwxz", hybrid_vector_weight: 0, src_prefix: "a", limit: 8, fields: ["tags", "src", "collection"] },
      { src_prefix: "a", limit: 8, fields: ["tags", "src", "collection"] },
    ]);
    expect([counts.chunks, counts.keywordMatches, counts.noWordMatched, counts.tags]).toEqual([9, false, true, every.tags]);
  });
});

describe("facet requests", () => {
  it("asks once, under the search's own filters, when no tag is chosen", () => {
    const body = { query: "json", k: 10, src_prefix: "https://docs" };
    expect(facetRequests(body)).toEqual([{ ...body, limit: 8, fields: ["tags", "src", "collection"] }]);
  });

  it("counts tags as if none were chosen, the rest under every filter", () => {
    const body = { query: "json", tags_any: ["json", "csv"] };
    const [tags, rest] = facetRequests(body);
    expect(tags).toEqual({ query: "json", limit: 8, fields: ["tags"] });
    expect(rest).toEqual({ ...body, limit: 8, fields: ["src", "collection"] });
  });

  it("takes each facet from the request that counted it, the total from the whole filter", () => {
    const merged = mergeCounts([
      answer({ chunks: 50, facets: { tags: facet("csv", 20) } }),
      answer({ chunks: 7, counted: "keyword_matches", exact: false,
               facets: { src: facet("a", 7, false), collection: facet("default", 7) } }), // prettier-ignore
    ]);
    expect(merged.tags.values[0]).toEqual({ value: "csv", chunks: 20 });
    expect([merged.chunks, merged.exact, merged.keywordMatches]).toEqual([7, false, true]);
  });
});

describe("a click on a value", () => {
  it("adds a tag to the tags or takes it out", () => {
    expect(withTag(state({ tags: "json", offset: 20 }), "csv")).toMatchObject({ tags: "json, csv", offset: 0 });
    expect(withTag(state({ tags: "json, csv" }), "json").tags).toBe("csv");
  });

  it("narrows to a source, and back", () => {
    expect(withSource(state({}), "https://a/b").srcPrefix).toBe("https://a/b");
    expect(withSource(state({ srcPrefix: "https://a/b" }), "https://a/b").srcPrefix).toBe("");
  });

  it("moves the search to a collection, ending more like this", () => {
    const moved = inCollection(state({ q: "x", likeDoc: "d", likeChunk: "d-0", tags: "json" }), "team");
    expect(moved).toMatchObject({ collection: "team", likeDoc: "", likeChunk: "", tags: "json", q: "x" });
  });
});
