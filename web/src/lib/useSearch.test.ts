import { act, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ServerInfo } from "./server";
import type { SearchState } from "./state";
import { DEFAULTS } from "./state";
import { useSearch } from "./useSearch";

afterEach(() => vi.unstubAllGlobals());

const answer = (...labels: string[]) => ({
  ok: true,
  k: labels.length,
  weights: { w_cos: 0, w_rec: 0.1, w_sig: 0.1, w_lex: 0.8 },
  rows: labels.map((chunk_id) => ({ chunk_id })),
  query_metadata: {},
});

interface Pending {
  body: Record<string, unknown>;
  resolve: (response: Response) => void;
}

// fetch that answers each request when told to, in any order.
function controlledFetch() {
  const pending: Pending[] = [];
  const fetch = vi.fn(
    (request: Request) =>
      new Promise<Response>((resolve, reject) => {
        request.signal.addEventListener("abort", () => reject(Object.assign(new Error("aborted"), { name: "AbortError" })));
        request.json().then((body: Record<string, unknown>) => pending.push({ body, resolve }));
      }),
  );
  const answerRequest = (i: number, ...labels: string[]) =>
    pending[i]?.resolve(new Response(JSON.stringify(answer(...labels)), { status: 200 }));
  return { fetch, pending, answerRequest };
}

const info = (patch: Partial<ServerInfo> = {}): ServerInfo => ({
  defaults: { k: 5, max_k: 50, max_offset: 950, max_per_source: 3, w_cos: null, w_lex: null, w_rec: 0.1, w_sig: 0.1,
    hybrid_vector_weight: 0.5, recency: { function: "inverse", scale_days: 1 }, fusion: "weighted", rrf_k: 60,
    low_confidence_score: 0.25 }, // prettier-ignore
  samples: [],
  sampleSpace: null,
  embedder: null,
  keysRequired: false,
  recencyFunctions: [],
  profiles: [],
  collections: [],
  ...patch,
});
const search = (patch: Partial<SearchState>): SearchState => ({ ...DEFAULTS, ...patch });

describe("useSearch", () => {
  it("shows the newer answer when an older one arrives later", async () => {
    const { fetch, pending, answerRequest } = controlledFetch();
    vi.stubGlobal("fetch", fetch);
    const { result } = renderHook(() => useSearch());
    act(() => void result.current.run(search({ q: "slow" }), info(), ""));
    await waitFor(() => expect(pending).toHaveLength(1));
    act(() => void result.current.run(search({ q: "fast" }), info(), ""));
    await waitFor(() => expect(pending).toHaveLength(2));
    await act(async () => answerRequest(1, "fast-row"));
    await act(async () => answerRequest(0, "slow-row"));
    expect(result.current.answer?.rows[0]?.chunk_id).toBe("fast-row");
    expect(result.current.loading).toBe(false);
    expect((fetch.mock.calls[0]?.[0] as Request).signal.aborted).toBe(true);
  });

  it("asks for one row more than shown, and shows Next only when it came", async () => {
    const { fetch, pending, answerRequest } = controlledFetch();
    vi.stubGlobal("fetch", fetch);
    const { result } = renderHook(() => useSearch());
    act(() => void result.current.run(search({ q: "x", k: "2" }), info(), ""));
    await waitFor(() => expect(pending).toHaveLength(1));
    expect(pending[0]?.body.k).toBe(3);
    await act(async () => answerRequest(0, "a", "b"));
    expect(result.current.answer?.rows.map((r) => r.chunk_id)).toEqual(["a", "b"]);
    expect(result.current.answer?.hasNext).toBe(false);
    expect(result.current.answer?.body.k).toBe(2); // what Copy as curl shows
  });

  it("keeps the last good answer beside the error of a failed search", async () => {
    const { fetch, pending, answerRequest } = controlledFetch();
    vi.stubGlobal("fetch", fetch);
    const { result } = renderHook(() => useSearch());
    act(() => void result.current.run(search({ q: "x" }), info(), ""));
    await waitFor(() => expect(pending).toHaveLength(1));
    await act(async () => answerRequest(0, "good"));
    vi.stubGlobal("fetch", async () => new Response('{"error":"k must be an integer in 1..50"}', { status: 400 }));
    await act(async () => result.current.run(search({ q: "x", k: "60" }), info(), ""));
    expect(result.current.answer?.rows[0]?.chunk_id).toBe("good");
    expect(result.current.error?.message).toBe("k must be an integer in 1..50");
  });

  it("gives a suggested question its stored vector when the server embeds nothing", async () => {
    const { fetch, pending } = controlledFetch();
    vi.stubGlobal("fetch", fetch);
    const { result } = renderHook(() => useSearch());
    const samples = [{ text: "parse json", embedding: [0.6, 0.8] }];
    act(() => void result.current.run(search({ q: "parse json" }), info({ samples }), ""));
    await waitFor(() => expect(pending).toHaveLength(1));
    expect(pending[0]?.body.embedding).toEqual([0.6, 0.8]);
    expect(pending[0]?.body.query).toBe("parse json");
  });
});
