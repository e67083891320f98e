// Each document or file sent from the page, newest first: its state with the numbers it
// waits on, the server's reason when it failed, and what can be done with it.

import type { IngestItem, Part } from "../lib/ingest";
import { canCancel, fraction, isRunning, keywordsOnly, stageText } from "../lib/ingest";

interface IngestListProps {
  items: IngestItem[];
  onSearch: (item: IngestItem) => void;
  onCancel: (key: number) => void;
  onRetry: (key: number) => void;
  onClear: () => void;
}

function summary(items: IngestItem[]): string {
  const running = items.filter(isRunning).length;
  const done = items.filter((i) => i.stage === "done").length;
  const failed = items.filter((i) => i.stage === "failed").length;
  const parts = [running && `${running} in progress`, done && `${done} done`, failed && `${failed} failed`].filter(Boolean);
  return parts.join(", ");
}

const PARTS_SHOWN = 50;

function partText(part: Part): string {
  if (part.status === "done") return `done: ${part.chunks ?? 0} chunk${part.chunks === 1 ? "" : "s"}`;
  return part.status;
}

// The documents of a zip archive, each with its own state and reason.
function Parts({ item, onSearch }: { item: IngestItem; onSearch: IngestListProps["onSearch"] }) {
  const shown = item.parts.slice(0, PARTS_SHOWN);
  return (
    <ul className="parts" aria-label={`Files of ${item.name}`}>
      {shown.map((part) => (
        <li key={part.name} data-testid="part" data-status={part.status}>
          <span className="part-name">{part.name}</span> <span className="dim">{partText(part)}</span>
          {part.status === "done" && part.docId && (
            <button type="button" className="link" onClick={() => onSearch({ ...item, name: part.name, docId: part.docId, title: null })}>
              search for it
            </button>
          )}
          {part.error && <span className="field-error"> {part.error}</span>}
        </li>
      ))}
      {item.parts.length > shown.length && <li className="dim">and {item.parts.length - shown.length} more</li>}
    </ul>
  );
}

function Item({ item, onSearch, onCancel, onRetry }: { item: IngestItem } & Omit<IngestListProps, "items" | "onClear">) {
  const share = fraction(item);
  return (
    <li className={`ingest-item ${item.stage}`} data-testid="ingest-item" data-stage={item.stage}>
      <div className="ingest-head">
        <b className="ingest-name">{item.name}</b>
        {item.title && item.title !== item.name && <span data-testid="stored-title">“{item.title}”</span>}
        <span className="dim">
          {item.kind === "file" ? "file" : "text"} → {item.collection}
          {item.jobId !== null && ` · job ${item.jobId}`}
        </span>
      </div>
      <div className="ingest-state">
        <span className="stage" data-testid="stage">
          {stageText(item)}
        </span>
        {share !== null && <progress max={1} value={share} aria-label={`${item.name}: ${stageText(item)}`} />}
      </div>
      {item.parts.length > 0 && <Parts item={item} onSearch={onSearch} />}
      {keywordsOnly(item) && (
        <p className="hint" data-testid="keywords-only">
          No vectors were made: no space of {item.collection} has an embedder on this server, so the document is found
          by its words only.
        </p>
      )}
      {item.error && (
        <p className="field-error" data-testid="item-error">
          {item.error}
        </p>
      )}
      <div className="actions">
        {item.stage === "done" && item.parts.length === 0 && (
          <button type="button" onClick={() => onSearch(item)}>
            Search for it
          </button>
        )}
        {canCancel(item) && (
          <button type="button" disabled={item.cancelling} onClick={() => onCancel(item.key)}>
            Cancel
          </button>
        )}
        {item.stage === "failed" && item.kind === "file" && item.retryable && (
          <button type="button" onClick={() => onRetry(item.key)}>
            Try again
          </button>
        )}
      </div>
    </li>
  );
}

export function IngestList({ items, onClear, ...actions }: IngestListProps) {
  if (!items.length) return null;
  const finished = items.some((item) => !isRunning(item));
  return (
    <section className="ingest" aria-labelledby="ingest-title">
      <div className="ingest-top">
        <h3 id="ingest-title">Sent from this page</h3>
        <span className="dim" role="status" data-testid="ingest-summary">
          {summary(items)}
        </span>
        {finished && (
          <button type="button" className="link" onClick={onClear}>
            clear finished
          </button>
        )}
      </div>
      <ol className="ingest-list">
        {items.map((item) => (
          <Item key={item.key} item={item} {...actions} />
        ))}
      </ol>
    </section>
  );
}
