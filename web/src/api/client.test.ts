import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, curlCommand, search } from "./client";

afterEach(() => vi.unstubAllGlobals());

const request = (fetch: ReturnType<typeof vi.fn>) => fetch.mock.calls[0]?.[0] as Request;

describe("the typed client", () => {
  it("sends the key and the body, and returns the answer", async () => {
    const fetch = vi.fn(async () => new Response('{"ok":true,"rows":[]}', { status: 200 }));
    vi.stubGlobal("fetch", fetch);
    expect(await search({ query: "x", k: 3 }, { apiKey: "k" })).toEqual({ ok: true, rows: [] });
    const sent = request(fetch);
    expect(new URL(sent.url).pathname).toBe("/api/rag/search");
    expect(sent.method).toBe("POST");
    expect(sent.headers.get("Authorization")).toBe("Bearer k");
    expect(await sent.json()).toEqual({ query: "x", k: 3 });
  });

  it("raises the API's own message with the status and the field", async () => {
    const body = '{"error":"w_cos needs a query vector","field":"w_cos"}';
    vi.stubGlobal("fetch", async () => new Response(body, { status: 400 }));
    const error = await search({ query: "x" }, { apiKey: "" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toBe("w_cos needs a query vector");
    expect((error as ApiError).field).toBe("w_cos");
  });

  it("says the sentence of an error that is a code with its message beside it", async () => {
    const body = '{"error":"request_timeout","message":"no answer within RAG_REQUEST_TIMEOUT (120 s)"}';
    vi.stubGlobal("fetch", async () => new Response(body, { status: 504 }));
    const error = await search({ query: "x" }, { apiKey: "" }).catch((e: unknown) => e);
    expect((error as ApiError).message).toBe("no answer within RAG_REQUEST_TIMEOUT (120 s)");
  });

  it("falls back to the status when the answer is not JSON", async () => {
    vi.stubGlobal("fetch", async () => new Response("<html>", { status: 502 }));
    const error = await search({ query: "x" }, { apiKey: "" }).catch((e: unknown) => e);
    expect((error as Error).message).toBe("HTTP 502");
  });
});

describe("curlCommand", () => {
  it("quotes the body for a POSIX shell, single quotes included", () => {
    const command = curlCommand("/api/rag/search", { query: "it's" }, "", "http://h:1");
    expect(command).toContain("'http://h:1/api/rag/search'");
    expect(command).toContain(`-d '{"query":"it'\\''s"}'`);
    expect(command).not.toContain("Authorization");
  });

  it("adds the bearer key when one is set", () => {
    expect(curlCommand("/p", {}, "secret", "http://h")).toContain("'Authorization: Bearer secret'");
  });
});
