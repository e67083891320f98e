// Each document or file sent from the page, newest first: its state with the numbers it
// waits on, the server's reason when it failed, and what can be done with it.

import type { IngestItem } from "../lib/ingest";
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

function Item({ item, onSearch, onCancel, onRetry }: { item: IngestItem } & Omit<IngestListProps, "items" | "onClear">) {
  const share = fraction(item);
  return (
    <li className={`ingest-item ${item.stage}`} data-testid="ingest-item" data-stage={item.stage}>
      <div className="ingest-head">
        <b className="ingest-name">{item.name}</b>
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
        {item.stage === "done" && (
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
