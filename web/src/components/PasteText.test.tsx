import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../api/client";
import type { TextDraft } from "../lib/ingest";
import { EMPTY_DRAFT } from "../lib/ingest";
import { PasteText } from "./PasteText";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// The facet count that says whether the id is taken: none stored under it.
const freeId = () => vi.stubGlobal("fetch", async () => new Response('{"ok":true,"chunks":0,"facets":{}}', { status: 200 }));

function Form({ onSend }: { onSend: (draft: TextDraft) => Promise<void> }) {
  const [draft, setDraft] = useState<TextDraft>(EMPTY_DRAFT);
  return <PasteText draft={draft} onDraft={setDraft} collection="default" apiKey="" onSend={onSend} />;
}

describe("PasteText", () => {
  it("says beside the fields what is missing, and sends nothing", async () => {
    const onSend = vi.fn(async () => undefined);
    render(<Form onSend={onSend} />);
    fireEvent.click(screen.getByRole("button", { name: "Add to default" }));
    expect(await screen.findByText("Paste or type the text to add.")).toBeTruthy();
    expect(screen.getByLabelText("Text").getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement?.id).toBe("doc-title"); // the first field in error
    expect(onSend).not.toHaveBeenCalled();
  });

  it("puts the server's refusal beside the field it names and keeps the text", async () => {
    freeId();
    const onSend = vi.fn(async () => {
      throw new ApiError(400, { error: "text must not be empty (or give chunks)", field: "text" });
    });
    render(<Form onSend={onSend} />);
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "Notes" } });
    fireEvent.change(screen.getByLabelText("Text"), { target: { value: "   kept  " } });
    fireEvent.click(screen.getByRole("button", { name: "Add to default" }));
    expect(await screen.findByText("text must not be empty (or give chunks)")).toBeTruthy();
    expect((screen.getByLabelText("Text") as HTMLTextAreaElement).value).toBe("   kept  ");
    expect(screen.getByLabelText("Text").getAttribute("aria-describedby")).toBe("doc-text-error");
  });

  it("guesses the type from the text and makes the id from the title", () => {
    render(<Form onSend={async () => undefined} />);
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "Cold Brew" } });
    fireEvent.change(screen.getByLabelText("Text"), { target: { value: "# Cold brew\n\n- steep" } });
    expect(screen.getByRole("option", { name: "Guess from the text (Markdown)" })).toBeTruthy();
    expect(screen.getByLabelText("Document id").getAttribute("placeholder")).toBe("cold-brew");
  });

  it("asks before replacing a document stored under the same id", async () => {
    vi.stubGlobal("fetch", async () => new Response('{"ok":true,"chunks":3,"facets":{}}', { status: 200 }));
    const onSend = vi.fn(async () => undefined);
    render(<Form onSend={onSend} />);
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "Brew" } });
    fireEvent.change(screen.getByLabelText("Text"), { target: { value: "Hot water." } });
    fireEvent.click(screen.getByRole("button", { name: "Add to default" }));
    expect((await screen.findByTestId("replace-notice")).textContent).toContain("“brew” is already the id of a document");
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Replace it" }));
    await waitFor(() => expect(onSend).toHaveBeenCalledTimes(1));
  });
});
