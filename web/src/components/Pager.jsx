// Pages of k rows through `offset`.

export function Pager({ offset, k, rows, onPage }) {
  const size = Number(k);
  const hasNext = rows >= size;
  if (offset === 0 && !hasNext) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - size))}>
        ← Previous
      </button>
      <span className="dim">
        rows {offset + 1}–{offset + rows}
      </span>
      <button type="button" disabled={!hasNext} onClick={() => onPage(offset + size)}>
        Next →
      </button>
    </nav>
  );
}
