// Pages of k rows through `offset`; Next only when rows follow.

interface PagerProps {
  offset: number;
  k: number;
  rows: number;
  hasNext: boolean;
  onPage: (offset: number) => void;
}

export function Pager({ offset, k, rows, hasNext, onPage }: PagerProps) {
  if (offset === 0 && !hasNext) return null;
  if (!rows) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - k))}>
        ← Previous
      </button>
      <span className="dim">
        rows {offset + 1}–{offset + rows}
      </span>
      <button type="button" disabled={!hasNext} onClick={() => onPage(offset + k)}>
        Next →
      </button>
    </nav>
  );
}
