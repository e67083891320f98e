// What an answer says about itself. One line is always shown (rows, what the query was
// made of, time); "Why these results?" opens the rest: the plan, weights, the class
// `auto` chose and what set the balance, the request as curl, and why-not for any chunk.

import { useState } from "react";
import type { Classification as ClassificationOut, SearchBody, Weights } from "../api/client";
import { curlCommand } from "../api/client";
import { fixed, percent } from "../lib/format";
import type { Answer } from "../lib/search";
import type { Mode } from "../lib/state";
import { WhyNotBox } from "./WhyNot";

export const MODE_TEXT: Record<Mode, string> = {
  hybrid: "keywords + vectors",
  keywords: "keywords only",
  vector: "vectors only",
};

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function CopyCurl({ body, apiKey }: { body: SearchBody; apiKey: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const command = curlCommand("/api/rag/search", body, apiKey, window.location.origin);
  return (
    <div className="curl">
      <button type="button" onClick={async () => setCopied(await copyText(command))}>
        Copy as curl
      </button>
      {copied === true && <span className="dim"> copied</span>}
      {copied === false && <span className="dim"> select the command below to copy it</span>}
      <pre data-testid="curl">{command}</pre>
    </div>
  );
}

// What set the keyword/vector split the search used, in words.
function splitSource(classification: ClassificationOut, body: SearchBody, mode: Mode): string {
  if (mode !== "hybrid") return "The question has no vector, so keywords take all of the relevance weight";
  if (body.hybrid_vector_weight !== undefined && body.hybrid_vector_weight !== null) return "The balance slider sets the split";
  if (classification.retry) return "Its best match was weak, so it searched again with the general balance";
  if (classification.evidence) return `Its evidence ${classification.evidence.decision}`;
  return `The ${classification.class} class sets the split`;
}

interface ClassificationProps {
  classification: ClassificationOut | null | undefined;
  weights: Weights;
  body: SearchBody;
  mode: Mode;
}

export function Classification({ classification, weights, body, mode }: ClassificationProps) {
  if (!classification) return null;
  const relevance = weights.w_cos + (weights.w_lex ?? 0);
  const vectors = relevance > 0 ? weights.w_cos / relevance : 0;
  return (
    <p className="classification" data-testid="classification">
      <b>auto</b> read this as <b>{classification.class}</b> ({percent(classification.confidence)} sure:{" "}
      {classification.reason}). {splitSource(classification, body, mode)}: vectors get {percent(vectors)} and keywords{" "}
      {percent(1 - vectors)} of the relevance weight.
    </p>
  );
}

export function SummaryLine({ answer }: { answer: Answer }) {
  const { rows, state, mode, response } = answer;
  const where = rows.length ? `Rows ${state.offset + 1}–${state.offset + rows.length}` : "No rows";
  return (
    <p className="summary-line" data-testid="summary">
      {where} · {MODE_TEXT[mode]} · {fixed(response.query_metadata.search_time_ms, 0)} ms
    </p>
  );
}

export function DiagnosticsPanel({ answer, apiKey }: { answer: Answer; apiKey: string }) {
  const { response, body, mode, roundTripMs } = answer;
  const meta = response.query_metadata;
  const weights = Object.entries(response.weights)
    .map(([name, value]) => `${name} ${fixed(value, 2)}`)
    .join(" · ");
  return (
    <div className="diagnostics" id="diagnostics" data-testid="diagnostics">
      <p className="pills">
        <span className="pill">{MODE_TEXT[mode]}</span>
        <span className="pill">{meta.fusion === "rrf" ? "reciprocal rank fusion" : "weighted sum"}</span>
        {meta.strategy !== meta.fusion && <span className="pill">{meta.strategy}</span>}
        <span className={meta.exact ? "pill good" : "pill"} title={meta.strategy_reason ?? ""}>
          {meta.exact ? "exact" : `approximate (${meta.approximate_streams.join(", ")})`}
        </span>
      </p>
      <p className="dim">
        {fixed(meta.search_time_ms, 1)} ms in the service · {fixed(roundTripMs, 0)} ms round trip · {meta.candidates_scanned}{" "}
        candidates · at most {meta.max_per_source || "any number of"} rows per source
      </p>
      <p className="dim" data-testid="weights">
        weights {weights}
      </p>
      <Classification classification={response.classification} weights={response.weights} body={body} mode={mode} />
      <CopyCurl body={body} apiKey={apiKey} />
      <WhyNotBox answer={answer} apiKey={apiKey} />
    </div>
  );
}
