// What the answer says about itself: the weights used, the plan, timings, the class
// `auto` chose, and the request as a curl command.

import { useState } from "react";
import { curlCommand } from "../lib/api.js";
import { fixed, percent } from "../lib/format.js";

const MODE_TEXT = {
  hybrid: "keywords + vectors",
  keywords: "keywords only",
  vector: "vectors only",
};

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function CopyCurl({ body, apiKey }) {
  const [copied, setCopied] = useState(null);
  const command = curlCommand("/api/rag/search", body, apiKey, window.location.origin);
  return (
    <details className="curl">
      <summary>
        <button type="button" onClick={async () => setCopied(await copyText(command))}>
          Copy as curl
        </button>
        {copied === true && <span className="dim"> copied</span>}
        {copied === false && <span className="dim"> select the command below to copy it</span>}
      </summary>
      <pre data-testid="curl">{command}</pre>
    </details>
  );
}

// The class `auto` chose, and the split of the relevance weight the search really used
// (keywords take it all when the query has no vector).
export function Classification({ classification, weights }) {
  if (!classification) return null;
  const { class: name, confidence, reason, evidence } = classification;
  const relevance = weights.w_cos + (weights.w_lex ?? 0);
  const vectors = relevance > 0 ? weights.w_cos / relevance : 0;
  return (
    <p className="classification" data-testid="classification">
      <b>auto</b> read this as <b>{name}</b> ({percent(confidence)} sure: {reason}), so vectors get{" "}
      {percent(vectors)} and keywords {percent(1 - vectors)} of the relevance weight
      {evidence ? `; its evidence ${evidence.decision}` : ""}.
    </p>
  );
}

export function Summary({ result, apiKey }) {
  const { response, body, mode, roundTripMs } = result;
  const meta = response.query_metadata;
  const weights = Object.entries(response.weights)
    .map(([name, value]) => `${name} ${fixed(value, 2)}`)
    .join(" · ");
  return (
    <div className="summary">
      <p data-testid="summary">
        <span className="pill">{MODE_TEXT[mode]}</span>
        <span className="pill">{meta.strategy}</span>
        <span className={meta.exact ? "pill good" : "pill"} title={meta.strategy_reason}>
          {meta.exact ? "exact" : `approximate (${(meta.approximate_streams || []).join(", ")})`}
        </span>
        <span className="dim">
          {fixed(meta.search_time_ms, 1)} ms in the service · {fixed(roundTripMs, 0)} ms round trip ·{" "}
          {meta.candidates_scanned} candidates
        </span>
      </p>
      <p className="dim">weights {weights}</p>
      <Classification classification={response.classification} weights={response.weights} />
      <CopyCurl body={body} apiKey={apiKey} />
    </div>
  );
}
