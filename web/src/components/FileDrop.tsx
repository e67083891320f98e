// Files dropped on the zone or picked with the button: several at once, each sent as a
// document of its own. The types are the server's to accept: a refused file is answered
// with the server's reason beside it, and the other files still go in.

import { useRef, useState } from "react";

// What the service reads (docs/ingest/text-and-files.md); the server's 415 names the rest.
export const ACCEPTED_TEXT =
  "Text (.txt, .csv, .log), Markdown (.md), HTML (.html), reStructuredText (.rst), PDF, source code, and zip archives of these";

export function FileDrop({ collection, onFiles }: { collection: string; onFiles: (files: File[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  return (
    <div
      className={over ? "dropzone over" : "dropzone"}
      data-testid="dropzone"
      onDragEnter={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = "copy";
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const dropped = [...e.dataTransfer.files];
        if (dropped.length) onFiles(dropped);
      }}
    >
      <p>
        Drop files here, or{" "}
        <button type="button" className="primary" onClick={() => input.current?.click()}>
          choose files
        </button>
      </p>
      <p className="hint" id="accepted-types">
        {ACCEPTED_TEXT}. Each file becomes a document of {collection}, named after the file (a file sent again replaces
        its document).
      </p>
      <input
        ref={input}
        id="add-files"
        className="visually-hidden"
        type="file"
        multiple
        tabIndex={-1}
        aria-describedby="accepted-types"
        aria-label="Files to add"
        onChange={(e) => {
          const picked = [...(e.target.files ?? [])];
          e.target.value = ""; // the same file can be picked again
          if (picked.length) onFiles(picked);
        }}
      />
    </div>
  );
}
