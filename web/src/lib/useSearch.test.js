import { act, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULTS } from "./query.js";
import { useSearch } from "./useSearch.js";

afterEach(() => vi.unstubAllGlobals());

const answer = (label) => ({
  ok: true,
  weights: { w_cos: 0, w_rec: 0.1, w_sig: 0.1, w_lex: 0.8 },
  rows: [{ chunk_id: label }],
  query_metadata: {},
});

// fetch that answers each request when told to, in any order.
function controlledFetch() {
  const pending = [];
  const fetch = vi.fn(
    (path, init) =>
      new Promise((resolve, reject) => {
        init.signal?.addEventListener("abort", () =>
          reject(Object.assign(new Error("aborted"), { name: "AbortError" })),
        );
        pending.push({ body: JSON.parse(init.body), resolve });
      }),
  );
  const answerRequest = (i, label) =>
    pending[i].resolve(new Response(JSON.stringify(answer(label)), { status: 200 }));
  return { fetch, pending, answerRequest };
}

const context = { apiKey: "", embedder: null, samples: [], sampleSpace: null };

describe("useSearch", () => {
  it("shows the newer answer when an older one arrives later", async () => {
    const { fetch, pending, answerRequest } = controlledFetch();
    vi.stubGlobal("fetch", fetch);
    const { result } = renderHook(() => useSearch());
    act(() => {
      result.current.run({ ...DEFAULTS, q: "slow" }, context);
    });
    await waitFor(() => expect(pending).toHaveLength(1));
    act(() => {
      result.current.run({ ...DEFAULTS, q: "fast" }, context);
    });
    await waitFor(() => expect(pending).toHaveLength(2));
    await act(async () => answerRequest(1, "fast-row"));
    await act(async () => answerRequest(0, "slow-row"));
    expect(result.current.result.response.rows[0].chunk_id).toBe("fast-row");
    expect(result.current.loading).toBe(false);
    expect(fetch.mock.calls[0][1].signal.aborted).toBe(true);
  });

  it("replaces the results with the error of a failed search", async () => {
    vi.stubGlobal("fetch", async () => new Response('{"error":"k: too big"}', { status: 400 }));
    const { result } = renderHook(() => useSearch());
    await act(async () => result.current.run({ ...DEFAULTS, q: "x" }, context));
    expect(result.current.result).toBeNull();
    expect(result.current.error.message).toBe("k: too big");
  });

  it("gives a suggested question its stored vector when the server embeds nothing", async () => {
    const { fetch, pending } = controlledFetch();
    vi.stubGlobal("fetch", fetch);
    const { result } = renderHook(() => useSearch());
    const samples = [{ text: "parse json", embedding: [0.6, 0.8] }];
    act(() => {
      result.current.run({ ...DEFAULTS, q: "parse json" }, { ...context, samples });
    });
    await waitFor(() => expect(pending).toHaveLength(1));
    expect(pending[0].body.embedding).toEqual([0.6, 0.8]);
    expect(pending[0].body.query).toBe("parse json");
  });
});
