// "Why not this chunk?": where one chunk ranks for the search on screen, in words: under
// its row (Explain rank), or for any chunk id in the diagnostics.

import { useEffect, useRef, useState } from "react";
import type { ExplainAnswer } from "../api/client";
import type { Explanation } from "../lib/explanations";
import { explainFor } from "../lib/explanations";
import { fixed } from "../lib/format";
import type { Answer } from "../lib/search";

type Stage = (e: ExplainAnswer, shift: number, offset: number) => string;

const STAGE_TEXT: Record<string, Stage> = {
  // position counts from the page's first row, which is the server's row offset + 1
  included: (e, shift, offset) => `It is in the results, at rank ${offset + (e.position ?? 0) - shift}.`,
  before_offset: (e, shift) => `It is on an earlier page, at rank ${(e.position ?? 0) - shift}.`,
  filter: (e) =>
    `Filtered out by ${(e.failed_filters ?? []).join(", ")}` +
    (e.failed_conditions?.length ? `: ${e.failed_conditions.join("; ")}.` : "."),
  no_keyword_match: () => "None of the question's words occur in it, and the search has no vector.",
  min_similarity: (e) => `Its similarity ${fixed(e.sem)} is below min_similarity ${fixed(e.min_similarity)}.`,
  rrf_window: (e) =>
    `It is in none of the rankings' first ${e.rrf_window ?? "rrf_window"} (each component's), so fusion gives it nothing.`,
  min_score: (e) => `Its score ${fixed(e.score)} is below min_score ${fixed(e.min_score)}.`,
  max_per_source: (e) => `It scores high enough, but ${e.source} already has ${e.rows_of_source} rows (max per source).`,
  outscored: (e, shift) =>
    e.kth_score === null
      ? `It ranks ${(e.rank ?? 0) - shift}.`
      : `Outscored: it ranks ${(e.rank ?? 0) - shift} with ${fixed(e.score)}; the last row shown scores ${fixed(e.kth_score)} (short by ${fixed(e.short_by)}).`,
};

// `shift`: ranks shown are this much lower than the server's (more like this leaves its
// own chunk, rank 1, out); `offset`: the rows the request skipped (the page's).
export function explanationText(answer: ExplainAnswer, shift = 0, offset = 0): string {
  const text = STAGE_TEXT[answer.stage];
  return text ? text(answer, shift, offset) : `Stage: ${answer.stage}.`;
}

function ExplanationView({ explanation, answer }: { explanation: Explanation; answer: Answer }) {
  if (explanation.status === "loading") return <p className="dim">Explaining…</p>;
  if (explanation.status === "error") return <p className="field-error">{explanation.message}</p>;
  const found = explanation.answer;
  if (found.chunk_id === answer.state.likeChunk) {
    return (
      <p data-testid="explanation">
        <b>{found.chunk_id}</b>: this is the chunk the search is like; it is left out of its own results.
      </p>
    );
  }
  const shift = answer.state.likeChunk ? 1 : 0;
  return (
    <div data-testid="explanation">
      <p>
        <b>{found.chunk_id}</b>: {explanationText(found, shift, answer.body.offset ?? 0)}
      </p>
      <p className="dim">
        {found.ranks
          ? `ranks: ${Object.entries(found.ranks)
              .map(([name, rank]) => `${name} ${rank}`)
              .join(" · ")}`
          : Object.entries(found.components)
              .map(([name, c]) => `${name} ${fixed(c.raw)} → ${fixed(c.weighted)}`)
              .join(" · ")}
      </p>
    </div>
  );
}

export function RowExplanation({ explanation, answer }: { explanation: Explanation | undefined; answer: Answer }) {
  if (!explanation) return null;
  return (
    <div className="row-explanation">
      <ExplanationView explanation={explanation} answer={answer} />
    </div>
  );
}

// The chunk id box: its answer is always the one for the search on screen (asked again
// when the search changes).
export function WhyNotBox({ answer, apiKey }: { answer: Answer; apiKey: string }) {
  const [draft, setDraft] = useState("");
  const [asked, setAsked] = useState("");
  const [shown, setShown] = useState<{ id: number; chunkId: string; explanation: Explanation } | null>(null);
  const request = useRef(0);

  useEffect(() => {
    if (!asked) return;
    const mine = ++request.current;
    setShown({ id: answer.id, chunkId: asked, explanation: { status: "loading" } });
    explainFor(answer, asked, apiKey).then((explanation) => {
      if (request.current === mine) setShown({ id: answer.id, chunkId: asked, explanation });
    });
  }, [answer, asked, apiKey]);

  const current = shown && shown.id === answer.id && shown.chunkId === asked ? shown.explanation : undefined;
  return (
    <section className="whynot" aria-labelledby="whynot-title">
      <h3 id="whynot-title">Why not this chunk?</h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setAsked(draft.trim());
        }}
      >
        <label htmlFor="whynot-chunk">Chunk id</label>
        <div className="inline">
          <input id="whynot-chunk" value={draft} placeholder="python-csv-chunk-2" onChange={(e) => setDraft(e.target.value)} />
          <button type="submit" disabled={!draft.trim()}>
            Explain
          </button>
        </div>
      </form>
      {current && <ExplanationView explanation={current} answer={answer} />}
    </section>
  );
}
