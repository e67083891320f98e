import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, callApi, curlCommand } from "./api.js";

afterEach(() => vi.unstubAllGlobals());

describe("callApi", () => {
  it("sends the key and the body, and returns the JSON", async () => {
    const fetch = vi.fn(async () => new Response('{"ok":true}', { status: 200 }));
    vi.stubGlobal("fetch", fetch);
    expect(await callApi("/x", { method: "POST", body: { a: 1 }, apiKey: "k" })).toEqual({ ok: true });
    const [path, init] = fetch.mock.calls[0];
    expect(path).toBe("/x");
    expect(init.headers.Authorization).toBe("Bearer k");
    expect(init.body).toBe('{"a":1}');
  });

  it("raises the API's own message with the status", async () => {
    vi.stubGlobal("fetch", async () => new Response('{"error":"k: must be 1..50"}', { status: 400 }));
    const error = await callApi("/x").catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.message).toBe("k: must be 1..50");
  });

  it("falls back to the status when the answer is not JSON", async () => {
    vi.stubGlobal("fetch", async () => new Response("<html>", { status: 502 }));
    expect((await callApi("/x").catch((e) => e)).message).toBe("HTTP 502");
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
