import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, buildSearchBody, callApi, chunkVector } from "./api.js";

const FORM = {
  k: "7",
  wCos: "0.5",
  wRec: "0.3",
  wSig: "0.2",
  recency: "inverse",
  recencyDays: "30",
  srcPrefix: "",
  docIds: "",
  tagsAny: "",
};

describe("buildSearchBody", () => {
  it("maps the form to the search contract", () => {
    expect(buildSearchBody(FORM, [0.1, 0.2])).toEqual({
      embedding: [0.1, 0.2],
      k: 7,
      w_cos: 0.5,
      w_rec: 0.3,
      w_sig: 0.2,
    });
  });

  it("adds recency and filters only when set", () => {
    const body = buildSearchBody(
      { ...FORM, recency: "exponential", recencyDays: "14", srcPrefix: " https://a/ ", docIds: "d1, d2", tagsAny: "x" },
      [1],
    );
    expect(body.recency).toEqual({ function: "exponential", half_life_days: 14 });
    expect(body.src_prefix).toBe("https://a/");
    expect(body.doc_ids).toEqual(["d1", "d2"]);
    expect(body.tags_any).toEqual(["x"]);
    const gauss = buildSearchBody({ ...FORM, recency: "gaussian", recencyDays: "9" }, [1]);
    expect(gauss.recency).toEqual({ function: "gaussian", scale_days: 9 });
  });

  it("names the space when the vector is not in the default space", () => {
    const body = buildSearchBody(FORM, [1, 2], "minilm");
    expect(body.embeddings).toEqual({ minilm: [1, 2] });
    expect(body.embedding).toBeUndefined();
  });
});

describe("callApi", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("sends the bearer key and returns the JSON body", async () => {
    const fetchMock = vi.fn().mockResolvedValue({ ok: true, json: () => Promise.resolve({ ok: true }) });
    vi.stubGlobal("fetch", fetchMock);
    await expect(callApi("/api/rag/stats", { apiKey: "k1" })).resolves.toEqual({ ok: true });
    expect(fetchMock.mock.calls[0][1].headers.Authorization).toBe("Bearer k1");
  });

  it("turns an error body into an ApiError with the server's message", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn().mockResolvedValue({ ok: false, status: 400, json: () => Promise.resolve({ error: "k must be 1..50" }) }),
    );
    const failure = callApi("/api/rag/search", { method: "POST", body: {} });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toThrow("k must be 1..50");
  });

  it("finds a chunk's stored vector for 'more like this'", async () => {
    const doc = { chunks: [{ chunk_id: "c1", embeddings: { default: [0.5, 0.5] } }] };
    vi.stubGlobal("fetch", vi.fn().mockResolvedValue({ ok: true, json: () => Promise.resolve(doc) }));
    await expect(chunkVector("d1", "c1")).resolves.toEqual({ space: "default", vector: [0.5, 0.5] });
    await expect(chunkVector("d1", "c2")).rejects.toThrow("has no stored vector");
  });
});
