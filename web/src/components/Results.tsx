// The ranked rows: the document's title and source, the chunk's text with the query's
// words marked, its score bar, and what a reader can do with it. Under the last row of a
// source the per-source cap held rows of, a way to show them.

import { useState } from "react";
import type { SearchRow } from "../api/client";
import type { Explanation } from "../lib/explanations";
import { age, linkable, sourceLabel } from "../lib/format";
import type { HeldBack } from "../lib/heldBack";
import { sourceKey } from "../lib/scores";
import type { Answer } from "../lib/search";
import type { Scoring } from "./ScoreBar";
import { ScoreBar } from "./ScoreBar";
import { Snippet } from "./Snippet";
import { RowExplanation } from "./WhyNot";

export interface RowActions {
  moreLikeThis: (row: SearchRow) => void;
  explain: (chunkId: string) => void;
  useful: (row: SearchRow) => Promise<void>;
  isUseful: (row: SearchRow) => boolean;
}

const ThumbsUp = () => (
  <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" className="icon">
    <path
      fill="currentColor"
      d="M2 7h2.5v7H2zM6 14V7.2L8.7 2c.9 0 1.6.7 1.5 1.6L9.8 6H13c.8 0 1.4.7 1.3 1.5l-.9 5.3c-.1.7-.7 1.2-1.4 1.2z"
    />
  </svg>
);

function Heading({ row, rank }: { row: SearchRow; rank: number | null }) {
  const title = row.title || row.doc_id;
  return (
    <div className="result-head">
      {rank !== null && <span className="rank">{rank}</span>}
      {row.src && linkable(row.src) ? (
        <a className="result-title" href={row.src} target="_blank" rel="noreferrer">
          <bdi>{title}</bdi>
        </a>
      ) : (
        <b className="result-title" tabIndex={-1}>
          <bdi>{title}</bdi>
        </b>
      )}
      <span className="dim">
        {row.src ? (
          <>
            <bdi>{sourceLabel(row.src)}</bdi> ·{" "}
          </>
        ) : null}
        <bdi>{row.chunk_id}</bdi> · {age(row.days_old)}
      </span>
    </div>
  );
}

function UsefulButton({ row, actions }: { row: SearchRow; actions: RowActions }) {
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const pressed = actions.isUseful(row);
  return (
    <>
      <button
        type="button"
        aria-label={`useful: ${row.chunk_id}`}
        aria-pressed={pressed}
        disabled={busy}
        title={pressed ? "Marked useful: click to take it back" : "Tell the ranking this chunk helped"}
        onClick={async () => {
          setBusy(true);
          setError("");
          try {
            await actions.useful(row);
          } catch (caught) {
            setError((caught as Error).message);
          } finally {
            setBusy(false);
          }
        }}
      >
        <ThumbsUp /> {pressed ? "Useful ✓" : "Useful"}
      </button>
      {error && <p className="field-error">{error}</p>}
    </>
  );
}

interface RowProps {
  row: SearchRow;
  rank: number;
  terms: string[];
  scoring: Scoring;
  actions: RowActions;
  explanation: Explanation | undefined;
  answer: Answer;
}

function Row({ row, rank, terms, scoring, actions, explanation, answer }: RowProps) {
  return (
    <li className="result" data-chunk-id={row.chunk_id}>
      <Heading row={row} rank={rank} />
      <ScoreBar row={row} scoring={scoring} />
      <Snippet chunk={row.chunk} terms={terms} />
      <div className="actions">
        <button type="button" onClick={() => actions.moreLikeThis(row)}>
          More like this
        </button>
        <button type="button" aria-expanded={Boolean(explanation)} onClick={() => actions.explain(row.chunk_id)}>
          Explain rank
        </button>
        <UsefulButton row={row} actions={actions} />
      </div>
      <RowExplanation explanation={explanation} answer={answer} />
    </li>
  );
}

function HeldBackRows({ rows, terms, scoring }: { rows: SearchRow[]; terms: string[]; scoring: Scoring }) {
  const [open, setOpen] = useState(false);
  const count = rows.length;
  return (
    <li className="held-back" data-testid="held-back">
      <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
        {count} more from this source — {open ? "hide" : "show"}
      </button>
      <span className="dim"> (held back by max per source)</span>
      {open && (
        <ul className="held-rows">
          {rows.map((row) => (
            <li key={row.chunk_id} className="held-row" data-chunk-id={row.chunk_id}>
              <Heading row={row} rank={null} />
              <ScoreBar row={row} scoring={scoring} />
              <Snippet chunk={row.chunk} terms={terms} />
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

interface ResultsProps {
  answer: Answer;
  terms: string[];
  scoring: Scoring;
  actions: RowActions;
  explanations: Record<string, Explanation>;
  heldBack: HeldBack;
  weak: boolean;
}

export function Results({ answer, terms, scoring, actions, explanations, heldBack, weak }: ResultsProps) {
  const { rows } = answer;
  if (!rows.length) return null;
  const lastOfSource = new Map(rows.map((row, i) => [sourceKey(row), i]));
  return (
    <ol className={weak ? "results weak" : "results"} aria-label="Results">
      {rows.map((row, i) => {
        const source = sourceKey(row);
        const held = lastOfSource.get(source) === i ? heldBack[source] : undefined;
        return [
          <Row
            key={row.chunk_id}
            row={row}
            rank={answer.state.offset + i + 1}
            terms={terms}
            scoring={scoring}
            actions={actions}
            explanation={explanations[row.chunk_id]}
            answer={answer}
          />,
          held?.length ? <HeldBackRows key={`${row.chunk_id}-held`} rows={held} terms={terms} scoring={scoring} /> : null,
        ];
      })}
    </ol>
  );
}
