import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FacetCounts } from "../lib/facets";
import type { SearchState } from "../lib/state";
import { DEFAULTS } from "../lib/state";
import { FacetPanel } from "./Facets";

const facet = (values: [string, number][], exact = true, distinct = values.length) => ({
  values: values.map(([value, chunks]) => ({ value, chunks })),
  distinct,
  exact,
  refines: "",
});

const counts = (patch: Partial<FacetCounts> = {}): FacetCounts => ({
  tags: facet([["json", 6], ["csv", 1]], true, 5),
  src: facet([["https://docs.python.org/3/library/json.html", 6]]),
  collection: facet([["default", 6], ["team", 2]]),
  chunks: 6,
  exact: true,
  keywordMatches: false,
  noWordMatched: false,
  ...patch,
});

const state = (patch: Partial<SearchState> = {}): SearchState => ({ ...DEFAULTS, q: "json", ...patch });

afterEach(cleanup);

describe("FacetPanel", () => {
  it("names each value with its count, says what is counted and how many values are left out", () => {
    render(<FacetPanel facets={{ counts: counts(), failed: "", loading: false }} state={state()} onPick={() => {}} />);
    expect(screen.getByTestId("facet-basis").textContent).toBe(
      "6 chunks pass the filters; the counts are over all of them, not only this page.",
    );
    expect(screen.getByRole("button", { name: "tag csv: 1 chunk" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "source https://docs.python.org/3/library/json.html: 6 chunks" }).textContent).toBe(
      "docs.python.org/3/library/json.html6",
    );
    expect(screen.getByText("and 3 more")).toBeTruthy();
    expect(screen.getByRole("button", { name: "collection default: 6 chunks" }).getAttribute("aria-pressed")).toBe("true");
  });

  it("marks counts past the budget as lower bounds", () => {
    const partial = counts({ src: facet([["https://a", 100000]], false), chunks: 100000, exact: false, keywordMatches: true });
    render(<FacetPanel facets={{ counts: partial, failed: "", loading: true }} state={state()} onPick={() => {}} />);
    expect(screen.getByTestId("facet-basis").textContent).toContain("at least 100,000 chunks hold a word of the question");
    expect(screen.getByRole("button", { name: "source https://a: at least 100,000 chunks" }).textContent).toBe("a≥100,000");
    expect(screen.getByTestId("facets").getAttribute("aria-busy")).toBe("true");
  });

  it("refines the form's search by the value clicked", () => {
    const onPick = vi.fn();
    render(<FacetPanel facets={{ counts: counts(), failed: "", loading: false }} state={state({ tags: "json" })} onPick={onPick} />);
    expect(screen.getByRole("button", { name: "tag json: 6 chunks" }).getAttribute("aria-pressed")).toBe("true");
    fireEvent.click(screen.getByRole("button", { name: "tag csv: 1 chunk" }));
    expect(onPick).toHaveBeenLastCalledWith(expect.objectContaining({ tags: "json, csv", q: "json" }));
    fireEvent.click(screen.getByRole("button", { name: "collection default: 6 chunks" }));
    expect(onPick).toHaveBeenCalledTimes(1); // the collection searched already
    fireEvent.click(screen.getByRole("button", { name: "collection team: 2 chunks" }));
    expect(onPick).toHaveBeenLastCalledWith(expect.objectContaining({ collection: "team" }));
  });

  it("says when no chunk holds a word of the question", () => {
    render(<FacetPanel facets={{ counts: counts({ noWordMatched: true }), failed: "", loading: false }} state={state()} onPick={() => {}} />);
    expect(screen.getByTestId("facet-basis").textContent).toBe(
      "No chunk holds a word of the question; 6 chunks pass the filters, and the counts are over all of them, not only this page.",
    );
  });

  it("says why there are no counts", () => {
    render(<FacetPanel facets={{ counts: null, failed: "HTTP 503", loading: false }} state={state()} onPick={() => {}} />);
    expect(screen.getByText("The counts could not be had: HTTP 503")).toBeTruthy();
  });
});
