// "Add documents": a dialog with two ways in (paste a text, drop or pick files) into a
// collection, and the state of everything sent. It is modal while open (the focus stays
// in it, Escape or Close shuts it and gives the focus back to the button that opened it);
// closed, it stays mounted, so a draft is never lost and jobs go on being followed.

import type { KeyboardEvent, Ref } from "react";
import { useImperativeHandle, useRef, useState } from "react";
import type { IngestItem, TextDraft } from "../lib/ingest";
import { EMPTY_DRAFT } from "../lib/ingest";
import type { useIngest } from "../lib/useIngest";
import { FileDrop } from "./FileDrop";
import { IngestList } from "./IngestList";
import { PasteText } from "./PasteText";

type Way = "text" | "files";
const WAYS: [Way, string][] = [
  ["text", "Paste text"],
  ["files", "Files"],
];

// Opened and closed by the element itself (showModal, Escape), not by a state that could
// lag behind it: an Enter pressed on the opener right after Escape opens it again.
export interface DialogHandle {
  open: () => void;
  close: () => void;
}

interface AddDocumentsProps {
  handle: Ref<DialogHandle>;
  onClose: () => void; // after it closed (Escape, Close, or a search from it)
  collections: string[];
  collection: string; // the page's, chosen when the dialog opens
  apiKey: string;
  ingest: ReturnType<typeof useIngest>;
  onSearch: (item: IngestItem) => void;
}

export function AddDocuments({ handle, onClose, collections, collection, apiKey, ingest, onSearch }: AddDocumentsProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [way, setWay] = useState<Way>("text");
  const [target, setTarget] = useState(collection);
  const [draft, setDraft] = useState<TextDraft>(EMPTY_DRAFT);
  const close = useRef(onClose);
  close.current = onClose;

  useImperativeHandle(handle, () => ({
    open() {
      const element = dialog.current;
      if (!element || element.open) return;
      setTarget(collection);
      if (typeof element.showModal === "function") element.showModal();
      else element.setAttribute("open", "");
      element.querySelector<HTMLElement>(way === "text" ? "#doc-title" : ".dropzone button")?.focus();
    },
    close() {
      const element = dialog.current;
      if (typeof element?.close === "function") element.close();
      else element?.removeAttribute("open");
    },
  }));

  function onTabKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const next = way === "text" ? "files" : "text";
    setWay(next);
    document.getElementById(`way-${next}`)?.focus();
  }

  const choices = collections.includes(target) ? collections : [target, ...collections];
  return (
    <dialog
      ref={dialog}
      className="add-documents"
      aria-labelledby="add-documents-title"
      data-testid="add-documents"
      onClose={() => {
        if (!dialog.current?.open) close.current();
      }}
    >
      <div className="dialog-head">
        <h2 id="add-documents-title">Add documents</h2>
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <div className="control target">
        <label htmlFor="add-collection">Into the collection</label>
        <select id="add-collection" value={target} onChange={(e) => setTarget(e.target.value)}>
          {choices.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div role="tablist" aria-label="How to add" className="ways">
        {WAYS.map(([value, label]) => (
          <button
            key={value}
            id={`way-${value}`}
            type="button"
            role="tab"
            aria-selected={way === value}
            aria-controls={`panel-${value}`}
            tabIndex={way === value ? 0 : -1}
            onClick={() => setWay(value)}
            onKeyDown={onTabKey}
          >
            {label}
          </button>
        ))}
      </div>
      <div id="panel-text" role="tabpanel" aria-labelledby="way-text" hidden={way !== "text"}>
        <PasteText
          draft={draft}
          onDraft={setDraft}
          collection={target}
          apiKey={apiKey}
          onSend={async (sent) => {
            await ingest.addText(sent, target);
            setDraft(EMPTY_DRAFT);
          }}
        />
      </div>
      <div id="panel-files" role="tabpanel" aria-labelledby="way-files" hidden={way !== "files"}>
        <FileDrop collection={target} onFiles={(files) => ingest.addFiles(files, target)} />
      </div>
      <IngestList
        items={ingest.items}
        onSearch={onSearch}
        onCancel={(key) => void ingest.cancel(key)}
        onRetry={ingest.retry}
        onClear={ingest.clearFinished}
      />
    </dialog>
  );
}
