import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Classification as ClassificationOut } from "../api/client";
import { Classification } from "./Diagnostics";
import { ScoreBar } from "./ScoreBar";
import { explanationText } from "./WhyNot";

const row = {
  chunk_id: "c", doc_id: "d", src: "", title: "", chunk: "", model: "m", cos_dist: null, l2_dist: null,
  scale: 1, days_old: 1, created_at: "2026-01-01",
}; // prettier-ignore

describe("ScoreBar", () => {
  it("stacks each weighted component at its share of the score", () => {
    const scored = {
      ...row,
      score: 0.5,
      components: {
        sem: { raw: 0.5, weighted: 0.3 },
        lex: { raw: 0.25, weighted: 0.1 },
        rec: { raw: 0, weighted: 0 },
        sig: { raw: 1, weighted: 0.1 },
      },
      per_space_scores: { default: 0.5 },
    };
    const scoring = { weights: { w_cos: 0.6, w_lex: 0.4, w_rec: 0, w_sig: 0.1 }, fusion: "weighted", rrfK: 60 };
    const { container } = render(<ScoreBar row={scored} scoring={scoring} />);
    const widths = [...container.querySelectorAll<HTMLElement>(".bar span")].map((s) => [s.dataset.component, s.style.width]);
    expect(widths).toEqual([["sem", "30%"], ["lex", "10%"], ["sig", "10%"]]);
    expect(screen.getByText("0.500")).toBeTruthy();
    expect(container.querySelector<HTMLElement>(".scorebar")?.title).toContain("space default: cosine 0.500");
    expect(container.querySelector("[data-testid=ranks]")).toBeNull();
  });

  it("draws rrf from the ranks and says them", () => {
    const fused = { ...row, score: 0.014, ranks: { sem: 4, lex: 1, rec: 37 } };
    const scoring = { weights: { w_cos: 0.24, w_lex: 0.56, w_rec: 0.1, w_sig: 0.1 }, fusion: "rrf", rrfK: 60 };
    const { container } = render(<ScoreBar row={fused} scoring={scoring} />);
    expect(container.querySelector("[data-testid=ranks]")?.textContent).toBe(
      "ranks: semantic 4 · keywords 1 · recency 37 · signal —",
    );
    expect(screen.getByText("0.0140")).toBeTruthy();
    const lex = container.querySelector<HTMLElement>('.bar span[data-component="lex"]');
    expect(Number.parseFloat(lex?.style.width ?? "")).toBeCloseTo(56, 0);
  });
});

describe("why-not in words", () => {
  const answer = (patch: object) => ({ stage: "", chunk_id: "c", rank: null, score: 0, kth_score: null, k: 10,
    components: {}, top_contributing_spaces: [], per_space_scores: {}, results: [],
    weights_applied: { w_cos: 1, w_rec: 0, w_sig: 0, space_weights: {} }, ...patch }); // prettier-ignore

  it("ranks a chunk of a later page from the page's offset", () => {
    // explain counts a position from the page's first row: page 3 of 10 starts at rank 21
    expect(explanationText(answer({ stage: "included", position: 4 }), 0, 20)).toBe("It is in the results, at rank 24.");
    // more like this: the server's offset skips the source chunk too (21), which is not shown
    expect(explanationText(answer({ stage: "included", position: 4 }), 1, 21)).toBe("It is in the results, at rank 24.");
    expect(explanationText(answer({ stage: "before_offset", position: 3, offset: 20 }))).toBe(
      "It is on an earlier page, at rank 3.",
    );
  });

  it("names the failing filter condition", () => {
    const text = explanationText(answer({ stage: "filter", failed_filters: ["filter"], failed_conditions: ["filter.page $lt 2"] }));
    expect(text).toBe("Filtered out by filter: filter.page $lt 2.");
  });

  it("says by how much a chunk was outscored, in the ranks shown", () => {
    const outscored = answer({ stage: "outscored", rank: 67, score: 0.196, kth_score: 0.417, short_by: 0.221 });
    expect(explanationText(outscored)).toBe("Outscored: it ranks 67 with 0.196; the last row shown scores 0.417 (short by 0.221).");
    expect(explanationText(answer({ stage: "included", position: 3 }), 1)).toBe("It is in the results, at rank 2.");
  });

  it("says a chunk is past every ranking fusion reads", () => {
    expect(explanationText(answer({ stage: "rrf_window", rrf_window: 100 }))).toBe(
      "It is in none of the rankings' first 100 (each component's), so fusion gives it nothing.",
    );
  });
});

describe("Classification", () => {
  const general: ClassificationOut = {
    class: "general", confidence: 0.5, reason: "no rule matched", vector_share: 0.5, keyword_share: 0.5,
    suggested_k: 10, also_matched: [], weights: { w_cos: 0.4, w_rec: 0.1, w_sig: 0.1, w_lex: 0.4 }, retry: null,
  }; // prettier-ignore
  const text = (classification: ClassificationOut, body: object, mode: "hybrid" | "keywords", weights = { w_cos: 0.4, w_rec: 0.1, w_sig: 0.1, w_lex: 0.4 }) =>
    render(<Classification classification={classification} weights={weights} body={body} mode={mode} />).container.textContent;

  it("says the class and that the class set the split", () => {
    expect(text(general, {}, "hybrid")).toBe(
      "auto read this as general (50% sure: no rule matched). The general class sets the split: vectors get 50% and keywords 50% of the relevance weight.",
    );
  });

  it("credits the slider when the request set the balance", () => {
    const weights = { w_cos: 0.56, w_rec: 0.1, w_sig: 0.1, w_lex: 0.24 };
    expect(text(general, { hybrid_vector_weight: 0.7 }, "hybrid", weights)).toContain(
      "The balance slider sets the split: vectors get 70% and keywords 30%",
    );
  });

  it("credits the evidence, or the missing vector", () => {
    const evidence = { lex_peak: 0.3, sem_peak: 0, lean: 0.3, rows: 10, vector_share: 0.3, decision: "moved toward keywords" };
    const weights = { w_cos: 0.24, w_rec: 0.1, w_sig: 0.1, w_lex: 0.56 };
    expect(text({ ...general, evidence }, {}, "hybrid", weights)).toContain(
      "Its evidence moved toward keywords: vectors get 30% and keywords 70%",
    );
    expect(text(general, {}, "keywords", { w_cos: 0, w_rec: 0.1, w_sig: 0.1, w_lex: 0.8 })).toContain(
      "The question has no vector, so keywords take all of the relevance weight: vectors get 0% and keywords 100%",
    );
  });
});
