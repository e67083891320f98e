import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import type { SearchState } from "./state";
import { DEFAULTS } from "./state";
import { controlOf, formErrors } from "./validate";

const state = (patch: Partial<SearchState>): SearchState => ({ ...DEFAULTS, q: "x", ...patch });
const limits = { maxK: 50 };

describe("the form's own checks", () => {
  it("passes the defaults", () => {
    expect(formErrors(state({}), limits)).toEqual({});
  });

  it("names each invalid control with its rule", () => {
    const errors = formErrors(
      state({ k: "60", maxPerSource: "-1", recency: "exponential", recencyDays: "0", filter: "{nope" }),
      limits,
    );
    expect(errors.k).toBe("Rows per page must be a whole number from 1 to 50");
    expect(errors.max_per_source).toMatch(/^Max per source must be a whole number/);
    expect(errors.recency_days).toBe("The half-life must be a number of days above 0 (at most 1e9)");
    expect(errors.filter).toMatch(/^Not valid JSON/);
  });

  it("refuses an empty k, a filter that is not an object, and dates the wrong way round", () => {
    const errors = formErrors(state({ k: "", filter: "[1]", after: "2026-01-02", before: "2026-01-01" }), limits);
    expect(Object.keys(errors).sort()).toEqual(["before", "filter", "k"]);
  });

  it("ignores the days while no decay is chosen", () => {
    expect(formErrors(state({ recencyDays: "" }), limits)).toEqual({});
  });
});

describe("server errors beside their control", () => {
  const error = (message: string, field?: string) => new ApiError(400, { error: message, ...(field ? { field } : {}) });

  it("reads the request field from the message or the error's field", () => {
    expect(controlOf(error("k must be an integer in 1..50"))).toBe("k");
    expect(controlOf(error("recency.half_life_days must be a number of days in 1e-6..1e9"))).toBe("recency_days");
    expect(controlOf(error("recency.function must be inverse, exponential, gaussian or linear"))).toBe("recency");
    expect(controlOf(error('filter.x: unknown operator "$bad"'))).toBe("filter");
    expect(controlOf(error("tags_any must be an array of tags"))).toBe("tags");
    expect(controlOf(error("w_cos needs a query vector", "w_cos"))).toBe("balance");
  });

  it("leaves errors about no control, and other statuses, above the results", () => {
    expect(controlOf(error("no collection 'x'"))).toBeNull();
    expect(controlOf(new ApiError(401, { error: "Unauthorized" }))).toBeNull();
  });
});
