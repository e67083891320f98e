// The ranked rows: where each comes from, its text with the query's words marked, and
// its score as a stacked bar of the weighted components.

import { useState } from "react";
import { COMPONENTS, age, fixed } from "../lib/format.js";
import { highlight, readableBlocks } from "../lib/text.js";

function Marked({ text, terms }) {
  return highlight(text, terms).map((segment, i) =>
    segment.mark ? <mark key={i}>{segment.text}</mark> : <span key={i}>{segment.text}</span>,
  );
}

function ChunkText({ chunk, terms }) {
  const [open, setOpen] = useState(false);
  const long = chunk.length > 420;
  return (
    <div className="chunk">
      <div className={long && !open ? "clamped" : ""}>
        {readableBlocks(chunk).map((block, i) =>
          block.kind === "code" ? (
            <pre key={i}>
              <Marked text={block.text} terms={terms} />
            </pre>
          ) : (
            <p key={i}>
              <Marked text={block.text} terms={terms} />
            </p>
          ),
        )}
      </div>
      {long && (
        <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? "less" : "more"}
        </button>
      )}
    </div>
  );
}

function componentTitle(row) {
  const parts = COMPONENTS.filter((c) => row.components?.[c.key]).map(({ key, label }) => {
    const { raw, weighted } = row.components[key];
    return `${label}: ${fixed(raw)} × weight = ${fixed(weighted)}`;
  });
  const spaces = Object.entries(row.per_space_scores || {}).map(
    ([space, score]) => `space ${space}: cosine ${fixed(score)}`,
  );
  return [...parts, ...spaces].join("\n");
}

export function ScoreBar({ row }) {
  const title = componentTitle(row);
  return (
    <div className="scorebar" title={title} aria-label={`score ${fixed(row.score)}: ${title}`}>
      <div className="bar">
        {COMPONENTS.map(({ key, color }) => {
          const weighted = row.components?.[key]?.weighted ?? 0;
          return weighted > 0 ? (
            <span key={key} data-component={key} style={{ width: `${Math.min(100, weighted * 100)}%`, background: color }} />
          ) : null;
        })}
      </div>
      <span className="score">{fixed(row.score)}</span>
    </div>
  );
}

const ThumbsUp = () => (
  <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" className="icon">
    <path
      fill="currentColor"
      d="M2 7h2.5v7H2zM6 14V7.2L8.7 2c.9 0 1.6.7 1.5 1.6L9.8 6H13c.8 0 1.4.7 1.3 1.5l-.9 5.3c-.1.7-.7 1.2-1.4 1.2z"
    />
  </svg>
);

function Row({ row, rank, terms, actions }) {
  const [voted, setVoted] = useState(false);
  return (
    <li className="result" data-chunk-id={row.chunk_id}>
      <div className="result-head">
        <span className="rank">{rank}</span>
        {row.src ? (
          <a href={row.src} target="_blank" rel="noreferrer">
            {row.doc_id}
          </a>
        ) : (
          <b>{row.doc_id}</b>
        )}
        <span className="dim">
          {row.chunk_id} · {age(row.days_old)}
        </span>
      </div>
      <ScoreBar row={row} />
      <ChunkText chunk={row.chunk} terms={terms} />
      <div className="actions">
        <button type="button" onClick={() => actions.moreLikeThis(row)}>
          More like this
        </button>
        <button type="button" onClick={() => actions.whyNot(row.chunk_id)}>
          Explain rank
        </button>
        <button
          type="button"
          aria-label={`useful: ${row.chunk_id}`}
          aria-pressed={voted}
          onClick={async () => setVoted(await actions.thumbsUp(row))}
        >
          <ThumbsUp /> Useful
        </button>
      </div>
    </li>
  );
}

export function Legend() {
  return (
    <p className="legend">
      {COMPONENTS.map(({ key, label, color }) => (
        <span key={key}>
          <i style={{ background: color }} /> {label}
        </span>
      ))}
    </p>
  );
}

export function Results({ rows, offset, terms, actions }) {
  if (!rows.length) return <p className="empty">No chunk passes the filters.</p>;
  return (
    <ol className="results">
      {rows.map((row, i) => (
        <Row key={row.chunk_id} row={row} rank={offset + i + 1} terms={terms} actions={actions} />
      ))}
    </ol>
  );
}
