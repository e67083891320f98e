// What the page says about an answer as a whole: the rows answer the question poorly,
// or no row passes the filters, or a request failed while the last good rows stay.

import { fixed } from "../lib/format";

export function WeakMatch({ best, floor }: { best: number; floor: number }) {
  return (
    <p className="notice weak-notice" data-testid="weak-match" role="status">
      <b>Weak matches.</b> No row answers the question well (best relevance {fixed(best, 2)}, under the server's{" "}
      {fixed(floor, 2)}): the rows below are ranked mostly by recency and signal. Try other words.
    </p>
  );
}

interface NoRowsProps {
  offset: number;
  keywordsOnly: boolean;
  onFirstPage: () => void;
}

export function NoRows({ offset, keywordsOnly, onFirstPage }: NoRowsProps) {
  if (offset > 0) {
    return (
      <p className="empty" data-testid="no-rows">
        No rows past row {offset}.{" "}
        <button type="button" className="link" onClick={onFirstPage}>
          back to the first page
        </button>
      </p>
    );
  }
  return (
    <p className="empty" data-testid="no-rows">
      {keywordsOnly
        ? "No chunk contains the question's words (typed questions are searched by keywords only here)."
        : "No chunk passes the filters."}
    </p>
  );
}

export function StaleNote() {
  return (
    <p className="notice" data-testid="stale-note">
      These are the last results that ran: fix the field marked above to search again.
    </p>
  );
}
