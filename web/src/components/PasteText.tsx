// A text pasted or typed into the page, sent as a document: its title, id, source and
// type (guessed from the text unless chosen). A refusal is shown beside the field it names
// and the draft stays as typed; a document already stored under the same id is replaced
// only once the user says so.

import { useRef, useState } from "react";
import { ApiError, facets } from "../api/client";
import type { TextDraft } from "../lib/ingest";
import { CONTENT_TYPES, draftErrors, draftId, errorText, guessType, idFromTitle, typeName } from "../lib/ingest";

type DraftField = keyof TextDraft;
type Errors = Partial<Record<DraftField | "form", string>>;

// The request fields the server names, by the draft field that holds them.
const SERVER_FIELDS: Record<string, DraftField> = { text: "text", title: "title", doc_id: "docId", src: "src", content_type: "contentType" };
const INPUT_IDS: Record<DraftField, string> = { title: "doc-title", docId: "doc-id", src: "doc-src", contentType: "doc-type", text: "doc-text" };

interface PasteTextProps {
  draft: TextDraft;
  onDraft: (draft: TextDraft) => void;
  collection: string;
  apiKey: string;
  onSend: (draft: TextDraft) => Promise<void>;
}

// Whether the collection holds a document under this id (counted, so that a free id is an
// answer, not a 404).
async function stored(docId: string, collection: string, apiKey: string): Promise<boolean> {
  const counted = await facets({ collection, doc_ids: [docId], fields: ["collection"], limit: 1 }, { apiKey });
  return counted.chunks > 0;
}

export function PasteText({ draft, onDraft, collection, apiKey, onSend }: PasteTextProps) {
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const [replacing, setReplacing] = useState<string | null>(null); // the id the user agreed to replace
  const [existing, setExisting] = useState<string | null>(null); // the id found stored
  const form = useRef<HTMLFormElement>(null);
  const id = draftId(draft);
  const guessed = guessType(draft.text);

  function change(patch: Partial<TextDraft>) {
    onDraft({ ...draft, ...patch });
    const cleared = { ...errors, form: undefined };
    for (const name of Object.keys(patch)) delete cleared[name as DraftField];
    setErrors(cleared);
    if ("docId" in patch || "title" in patch) setExisting(null);
  }

  function focusFirst(found: Errors) {
    const first = (Object.keys(INPUT_IDS) as DraftField[]).find((name) => found[name]);
    if (first) form.current?.querySelector<HTMLElement>(`#${INPUT_IDS[first]}`)?.focus();
  }

  async function submit(replace = false) {
    const local = draftErrors(draft);
    if (Object.keys(local).length) {
      setErrors(local);
      focusFirst(local);
      return;
    }
    setSending(true);
    setErrors({});
    try {
      if (!replace && replacing !== id && (await stored(id, collection, apiKey))) {
        setExisting(id);
        return;
      }
      await onSend(draft);
      setExisting(null);
      setReplacing(null);
    } catch (error) {
      const field = error instanceof ApiError && error.field ? SERVER_FIELDS[error.field.split(".")[0] ?? ""] : undefined;
      const found: Errors = field ? { [field]: errorText(error) } : { form: errorText(error) };
      setErrors(found);
      focusFirst(found);
    } finally {
      setSending(false);
    }
  }

  const invalid = (name: DraftField) =>
    errors[name] ? { "aria-invalid": true, "aria-describedby": `${INPUT_IDS[name]}-error` } : {};
  const fieldError = (name: DraftField) =>
    errors[name] && (
      <p className="field-error" id={`${INPUT_IDS[name]}-error`}>
        {errors[name]}
      </p>
    );

  return (
    <form
      ref={form}
      className="paste-text"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="row2">
        <div className="control">
          <label htmlFor="doc-title">Title</label>
          <input id="doc-title" value={draft.title} autoComplete="off" onChange={(e) => change({ title: e.target.value })} {...invalid("title")} />
          {fieldError("title")}
        </div>
        <div className="control">
          <label htmlFor="doc-src">
            Source <span className="dim">(optional: a URL or path)</span>
          </label>
          <input id="doc-src" value={draft.src} autoComplete="off" onChange={(e) => change({ src: e.target.value })} {...invalid("src")} />
          {fieldError("src")}
        </div>
      </div>
      <div className="row2">
        <div className="control">
          <label htmlFor="doc-type">Type</label>
          <select id="doc-type" value={draft.contentType} onChange={(e) => change({ contentType: e.target.value })} {...invalid("contentType")}>
            <option value="">Guess from the text ({typeName(guessed)})</option>
            {CONTENT_TYPES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          {fieldError("contentType")}
        </div>
        <div className="control">
          <label htmlFor="doc-id">Document id</label>
          <input
            id="doc-id"
            value={draft.docId}
            placeholder={idFromTitle(draft.title) || "from the title"}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => change({ docId: e.target.value })}
            {...invalid("docId")}
          />
          {fieldError("docId")}
        </div>
      </div>
      <div className="control">
        <label htmlFor="doc-text">Text</label>
        <textarea id="doc-text" rows={9} value={draft.text} onChange={(e) => change({ text: e.target.value })} {...invalid("text")} />
        {fieldError("text")}
      </div>
      {existing && (
        <div className="notice replace-notice" role="alert" data-testid="replace-notice">
          “{existing}” is already the id of a document in {collection}: adding this text replaces that document.{" "}
          <button
            type="button"
            onClick={() => {
              setReplacing(existing);
              void submit(true);
            }}
          >
            Replace it
          </button>{" "}
          <button type="button" className="link" onClick={() => form.current?.querySelector<HTMLElement>("#doc-id")?.focus()}>
            change the id
          </button>
        </div>
      )}
      {errors.form && (
        <p className="error" role="alert" data-testid="paste-error">
          {errors.form}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={sending} aria-busy={sending}>
          {sending ? "Sending…" : `Add to ${collection}`}
        </button>
      </div>
    </form>
  );
}
