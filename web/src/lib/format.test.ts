import { describe, expect, it } from "vitest";
import { linkable, sourceLabel } from "./format";

describe("sources", () => {
  it("links web addresses only", () => {
    expect(linkable("https://docs.python.org/3/library/json.html")).toBe(true);
    expect(linkable("http://intranet/wiki")).toBe(true);
    for (const src of ["javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,<b>x</b>",
      "file:///etc/passwd", "bench://doc/1", "notes/readme.md", ""]) {
      expect(linkable(src)).toBe(false);
    }
  });

  it("labels a source by host and path", () => {
    expect(sourceLabel("https://docs.python.org/3/library/json.html")).toBe("docs.python.org/3/library/json.html");
    expect(sourceLabel("notes/readme.md")).toBe("notes/readme.md");
    expect(sourceLabel("javascript:window.x=1")).toBe("javascript:window.x=1");
    expect(sourceLabel("bench://doc/1")).toBe("bench://doc/1");
  });
});
