import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ScoreBar } from "./Results.jsx";
import { Classification } from "./Summary.jsx";
import { explanationText } from "./WhyNot.jsx";

describe("ScoreBar", () => {
  it("stacks each weighted component at its share of the score", () => {
    const row = {
      score: 0.5,
      components: {
        sem: { raw: 0.5, weighted: 0.3 },
        lex: { raw: 0.25, weighted: 0.1 },
        rec: { raw: 0, weighted: 0 },
        sig: { raw: 1, weighted: 0.1 },
      },
      per_space_scores: { default: 0.5 },
    };
    const { container } = render(<ScoreBar row={row} />);
    const widths = [...container.querySelectorAll(".bar span")].map((s) => [
      s.dataset.component,
      s.style.width,
    ]);
    expect(widths).toEqual([["sem", "30%"], ["lex", "10%"], ["sig", "10%"]]);
    expect(screen.getByText("0.500")).toBeTruthy();
    expect(container.querySelector(".scorebar").title).toContain("space default: cosine 0.500");
  });
});

describe("why-not in words", () => {
  it("names the failing filter condition", () => {
    const text = explanationText({
      stage: "filter",
      failed_filters: ["filter"],
      failed_conditions: ["filter.page $lt 2"],
    });
    expect(text).toBe("Filtered out by filter: filter.page $lt 2.");
  });

  it("says by how much a chunk was outscored", () => {
    const text = explanationText({ stage: "outscored", rank: 67, score: 0.196, kth_score: 0.417, short_by: 0.221 });
    expect(text).toBe("Outscored: it ranks 67 with 0.196; the last row shown scores 0.417 (short by 0.221).");
  });
});

describe("Classification", () => {
  it("states the split the search used, not only the class's suggestion", () => {
    const classification = { class: "general", confidence: 0.5, reason: "no rule matched", vector_share: 0.5 };
    const { container } = render(
      <Classification classification={classification} weights={{ w_cos: 0, w_lex: 0.8 }} />,
    );
    expect(container.textContent).toContain("read this as general (50% sure: no rule matched)");
    expect(container.textContent).toContain("vectors get 0% and keywords 100%");
  });

  it("says what the evidence decided", () => {
    const classification = {
      class: "lookup", confidence: 0.9, reason: "a backticked name",
      evidence: { decision: "moved toward keywords", vector_share: 0.3 },
    }; // prettier-ignore
    const { container } = render(
      <Classification classification={classification} weights={{ w_cos: 0.3, w_lex: 0.7 }} />,
    );
    expect(container.textContent).toContain("vectors get 30% and keywords 70% of the relevance weight; its evidence moved toward keywords.");
  });
});
