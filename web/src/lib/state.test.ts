import { describe, expect, it } from "vitest";
import type { SearchState } from "./state";
import { DEFAULTS, buildSearchBody, stateFromUrl, urlFromState } from "./state";

const state = (patch: Partial<SearchState>): SearchState => ({ ...DEFAULTS, ...patch });

describe("URL state", () => {
  it("round-trips every field that differs from the defaults", () => {
    const original = state({
      q: "parse json", profile: "auto", balance: 0.25, wRec: 0, wSig: 0.3, recency: "gaussian",
      recencyDays: "14", fusion: "rrf", k: "7", offset: 14, maxPerSource: "0", diversity: 0.5,
      collection: "team", srcPrefix: "https://docs", tags: "json,csv", after: "2025-01-01",
      before: "2026-01-01", filter: '{"license":"MIT"}', likeDoc: "d", likeChunk: "d-0",
    }); // prettier-ignore
    expect(stateFromUrl(urlFromState(original))).toEqual(original);
  });

  it("leaves defaults out of the URL", () => {
    expect(urlFromState(state({ q: "x" }))).toBe("?q=x");
    expect(urlFromState(DEFAULTS)).toBe("");
  });

  it("keeps typed fields as typed, so that the URL reproduces an invalid entry", () => {
    const invalid = state({ q: "x", k: "", recency: "exponential", recencyDays: "0" });
    const url = urlFromState(invalid);
    expect(url).toBe("?q=x&recency=exponential&recency_days=0&k=");
    expect(stateFromUrl(url)).toEqual(invalid);
  });

  it("leaves the days out when no decay is chosen", () => {
    expect(urlFromState(state({ q: "x", recencyDays: "14" }))).toBe("?q=x");
  });

  it("ignores numbers that are not numbers and clamps weights", () => {
    const parsed = stateFromUrl("?balance=7&w_rec=-1&offset=2.6&diversity=x&fusion=bogus");
    expect(parsed.balance).toBe(1);
    expect(parsed.wRec).toBe(0);
    expect(parsed.offset).toBe(3);
    expect(parsed.diversity).toBe(0);
    expect(parsed.fusion).toBe("weighted");
  });
});

describe("search body", () => {
  it("sends only what the user set, with explain on", () => {
    expect(buildSearchBody(state({ q: " json " }))).toEqual({
      collection: "default", k: 10, offset: 0, explain: true, query: "json",
    }); // prettier-ignore
  });

  it("sends the balance only for a hybrid query", () => {
    const s = state({ q: "json", balance: 0.2 });
    expect(buildSearchBody(s, { mode: "keywords" }).hybrid_vector_weight).toBeUndefined();
    const hybrid = buildSearchBody(s, { mode: "hybrid", vector: { space: null, values: [1, 0] } });
    expect(hybrid.hybrid_vector_weight).toBe(0.2);
    expect(hybrid.embedding).toEqual([1, 0]);
  });

  it("puts a vector of another space under embeddings and drops text for vector mode", () => {
    const body = buildSearchBody(state({ q: "json" }), { mode: "vector", vector: { space: "code", values: [0.5] } });
    expect(body.embeddings).toEqual({ code: [0.5] });
    expect(body.query).toBeUndefined();
  });

  it("builds recency, filters and options", () => {
    const body = buildSearchBody(
      state({
        q: "x", recency: "exponential", recencyDays: "7", wRec: 0, maxPerSource: "0",
        diversity: 0.4, tags: "a, b,", after: "2025-01-02", filter: '{"year": {"$gte": 2020}}',
        fusion: "rrf",
      }),
    ); // prettier-ignore
    expect(body.recency).toEqual({ function: "exponential", half_life_days: 7 });
    expect(body.w_rec).toBe(0);
    expect(body.max_per_source).toBe(0);
    expect(body.diversity_factor).toBe(0.4);
    expect(body.tags_any).toEqual(["a", "b"]);
    expect(body.created_after).toBe("2025-01-02T00:00:00Z");
    expect(body.filter).toEqual({ year: { $gte: 2020 } });
    expect(body.fusion).toBe("rrf");
    const linear = buildSearchBody(state({ q: "x", recency: "linear", recencyDays: "3" }));
    expect(linear.recency).toEqual({ function: "linear", scale_days: 3 });
  });
});
