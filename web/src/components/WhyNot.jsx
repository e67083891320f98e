// "Why not this chunk?": where one chunk ranks for the current search, in words.

import { fixed } from "../lib/format.js";

const STAGE_TEXT = {
  included: (e) => `It is in the results, at rank ${e.position}.`,
  filter: (e) =>
    `Filtered out by ${e.failed_filters.join(", ")}` +
    (e.failed_conditions.length ? `: ${e.failed_conditions.join("; ")}.` : "."),
  no_keyword_match: () => "None of the question's words occur in it, and the search has no vector.",
  min_similarity: (e) => `Its similarity ${fixed(e.sem)} is below min_similarity ${fixed(e.min_similarity)}.`,
  min_score: (e) => `Its score ${fixed(e.score)} is below min_score ${fixed(e.min_score)}.`,
  max_per_source: (e) =>
    `It scores high enough, but ${e.source} already has ${e.rows_of_source} rows (max per source).`,
  outscored: (e) =>
    e.kth_score === null
      ? `It ranks ${e.rank}.`
      : `Outscored: it ranks ${e.rank} with ${fixed(e.score)}; the last row shown scores ${fixed(e.kth_score)} (short by ${fixed(e.short_by)}).`,
};

export function explanationText(answer) {
  const text = STAGE_TEXT[answer.stage];
  return text ? text(answer) : `Stage: ${answer.stage}.`;
}

export function WhyNot({ chunkId, setChunkId, onExplain, answer, error }) {
  return (
    <section className="whynot" aria-labelledby="whynot-title">
      <h2 id="whynot-title">Why not this chunk?</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onExplain(chunkId.trim());
        }}
      >
        <label htmlFor="whynot-chunk">Chunk id</label>
        <div className="inline">
          <input id="whynot-chunk" value={chunkId} placeholder="python-csv-chunk-2" onChange={(e) => setChunkId(e.target.value)} />
          <button type="submit" disabled={!chunkId.trim()}>
            Explain
          </button>
        </div>
      </form>
      {error && <p className="error" role="alert">{error}</p>}
      {answer && (
        <div data-testid="explanation">
          <p>
            <b>{answer.chunk_id}</b>: {explanationText(answer)}
          </p>
          {answer.components && (
            <p className="dim">
              {Object.entries(answer.components)
                .map(([name, c]) => `${name} ${fixed(c.raw)} → ${fixed(c.weighted)}`)
                .join(" · ")}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
