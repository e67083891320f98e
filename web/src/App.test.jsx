import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";
import { Results } from "./App.jsx";

afterEach(cleanup);

const RESPONSE = {
  ok: true,
  k: 2,
  weights: { w_cos: 0.8, w_rec: 0.1, w_sig: 0.1 },
  query_metadata: { strategy: "threshold", exact: true, candidates_scanned: 42, search_time_ms: 1.5 },
  rows: [
    { chunk_id: "a", doc_id: "doc-a", src: "https://a", chunk: "first chunk", score: 0.9, cos_dist: 0.1, days_old: 1, scale: 2 },
    { chunk_id: "b", doc_id: "doc-b", src: "https://b", chunk: "second chunk", score: 0.5, cos_dist: null, days_old: 3.25, scale: 1 },
  ],
};

it("renders rows in order with their scores and the weights used", () => {
  render(<Results response={RESPONSE} onMoreLikeThis={() => {}} />);
  const items = screen.getAllByRole("listitem");
  expect(items).toHaveLength(2);
  expect(items[0].textContent).toContain("0.9000");
  expect(items[0].textContent).toContain("first chunk");
  expect(items[1].textContent).toContain("cos dist –");
  expect(screen.getByText(/weights used: cos 0.80/).textContent).toContain("42 candidates");
});

it("asks for more like a row", () => {
  const more = vi.fn();
  render(<Results response={RESPONSE} onMoreLikeThis={more} />);
  fireEvent.click(screen.getAllByText("more like this")[1]);
  expect(more).toHaveBeenCalledWith(RESPONSE.rows[1]);
});
