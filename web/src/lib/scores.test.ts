import { describe, expect, it } from "vitest";
import type { SearchRow } from "../api/client";
import { barParts, relevance, sourceKey, weakBest } from "./scores";

const row = (patch: Partial<SearchRow>): SearchRow => ({
  chunk_id: "c", doc_id: "d", src: "", title: "", chunk: "", model: "m", score: 0, cos_dist: null,
  l2_dist: null, scale: 1, days_old: 1, created_at: "2026-01-01", ...patch,
}); // prettier-ignore

const components = (sem: number, lex: number) => ({
  sem: { raw: sem, weighted: 0.4 * sem },
  lex: { raw: lex, weighted: 0.4 * lex },
  rec: { raw: 0.5, weighted: 0.05 },
  sig: { raw: 1, weighted: 0.1 },
});
const weights = { w_cos: 0.4, w_lex: 0.4, w_rec: 0.1, w_sig: 0.1 };

describe("bar parts", () => {
  it("are the weighted components in a weighted sum", () => {
    const parts = barParts(row({ components: components(0.5, 0.25) }), weights, "weighted", 60);
    expect(parts.map((p) => [p.key, p.share])).toEqual([["sem", 0.2], ["lex", 0.1], ["rec", 0.05], ["sig", 0.1]]);
  });

  it("are each rank's share of the best fused score in rrf, nothing past a window", () => {
    const score = 0.24 / 64 + 0.56 / 61 + 0.1 / 97;
    const ranked = row({ score, ranks: { sem: 4, lex: 1, rec: 37 } });
    const parts = barParts(ranked, { w_cos: 0.24, w_lex: 0.56, w_rec: 0.1, w_sig: 0.1 }, "rrf", 60);
    const best = 1 / 61;
    const shares = Object.fromEntries(parts.map((p) => [p.key, p.share]));
    expect(shares.sem).toBeCloseTo(0.24 / 64 / best, 6);
    expect(shares.lex).toBeCloseTo(0.56 / 61 / best, 6);
    expect(shares.rec).toBeCloseTo(0.1 / 97 / best, 6);
    expect(shares.sig).toBe(0);
    expect(parts.reduce((sum, p) => sum + p.share, 0)).toBeCloseTo(score / best, 9); // the bar is the score
    expect(parts.find((p) => p.key === "sig")?.text).toContain("not ranked");
  });
});

describe("weak matches", () => {
  it("measure relevance as the weighted keyword and semantic parts", () => {
    expect(relevance(row({ components: components(0.5, 0.25) }), weights)).toBeCloseTo(0.375);
    expect(relevance(row({}), { w_cos: 0, w_rec: 0.5, w_sig: 0.5 })).toBeNull();
  });

  it("flag a first page whose best row is under the floor", () => {
    const rows = [row({ components: components(0.1, 0) }), row({ components: components(0.2, 0) })];
    expect(weakBest(rows, weights, 0, 0.25)).toBeCloseTo(0.1);
    expect(weakBest(rows, weights, 10, 0.25)).toBeNull(); // later pages are weaker by rank
    expect(weakBest([row({ components: components(0.6, 0.7) })], weights, 0, 0.25)).toBeNull();
  });
});

it("counts a row against its source, or its document without one", () => {
  expect(sourceKey({ src: "https://a/b", doc_id: "d" })).toBe("https://a/b");
  expect(sourceKey({ src: "", doc_id: "d" })).toBe("d");
});
