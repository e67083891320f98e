import { useEffect, useState } from "react";
import {
  RECENCY_FUNCTIONS,
  buildSearchBody,
  chunkVector,
  examples,
  search,
} from "./api.js";

const INITIAL_FORM = {
  k: 5,
  wCos: 0.8,
  wRec: 0.1,
  wSig: 0.1,
  recency: "inverse",
  recencyDays: 30,
  srcPrefix: "",
  docIds: "",
  tagsAny: "",
};

function Slider({ label, value, onChange }) {
  return (
    <label className="slider">
      <span>
        {label} <b>{Number(value).toFixed(2)}</b>
      </span>
      <input
        type="range"
        min="0"
        max="1"
        step="0.05"
        value={value}
        aria-label={label}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

export function Results({ response, onMoreLikeThis }) {
  if (!response) return null;
  const { weights, rows, query_metadata: meta } = response;
  return (
    <section>
      <p className="meta">
        weights used: cos {weights.w_cos.toFixed(2)} · rec {weights.w_rec.toFixed(2)} · sig{" "}
        {weights.w_sig.toFixed(2)} — {meta.strategy}, {meta.exact ? "exact" : "approximate"},{" "}
        {meta.candidates_scanned} candidates, {meta.search_time_ms} ms
      </p>
      {rows.length === 0 && <p>No chunk passes the filters.</p>}
      <ol className="rows">
        {rows.map((row) => (
          <li key={row.chunk_id}>
            <div className="row-head">
              <span className="score">{row.score.toFixed(4)}</span>
              <a href={row.src} target="_blank" rel="noreferrer">
                {row.doc_id}
              </a>
              <span className="dim">
                cos dist {row.cos_dist === null ? "–" : row.cos_dist.toFixed(3)} ·{" "}
                {row.days_old.toFixed(1)} days old · scale {row.scale}
              </span>
              <button type="button" onClick={() => onMoreLikeThis(row)}>
                more like this
              </button>
            </div>
            <p>{row.chunk}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

export default function App() {
  const [form, setForm] = useState(INITIAL_FORM);
  const [apiKey, setApiKey] = useState(() => localStorage.getItem("ragsearch.key") || "");
  const [samples, setSamples] = useState([]);
  const [sampleSpace, setSampleSpace] = useState(null);
  const [sample, setSample] = useState(0);
  const [response, setResponse] = useState(null);
  const [error, setError] = useState("");
  const set = (name) => (value) => setForm((f) => ({ ...f, [name]: value }));

  useEffect(() => {
    localStorage.setItem("ragsearch.key", apiKey);
    examples(apiKey)
      .then((data) => {
        setSamples(data.queries);
        setSampleSpace(data.is_default_space ? null : data.space);
      })
      .catch((e) => setError(e.message));
  }, [apiKey]);

  async function run(vector, space) {
    setError("");
    try {
      setResponse(await search(buildSearchBody(form, vector, space), apiKey));
    } catch (e) {
      setError(e.message);
    }
  }

  async function moreLikeThis(row) {
    try {
      const { space, vector } = await chunkVector(row.doc_id, row.chunk_id, apiKey);
      await run(vector, space);
    } catch (e) {
      setError(e.message);
    }
  }

  return (
    <main>
      <h1>ragsearch</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (samples[sample]) run(samples[sample].embedding, sampleSpace);
        }}
      >
        <label>
          Question
          <select value={sample} onChange={(e) => setSample(Number(e.target.value))}>
            {samples.map((q, i) => (
              <option key={q.text} value={i}>
                {q.text}
              </option>
            ))}
          </select>
        </label>
        <div className="weights">
          <Slider label="w_cos" value={form.wCos} onChange={set("wCos")} />
          <Slider label="w_rec" value={form.wRec} onChange={set("wRec")} />
          <Slider label="w_sig" value={form.wSig} onChange={set("wSig")} />
        </div>
        <div className="options">
          <label>
            k
            <input type="number" min="1" max="50" value={form.k} onChange={(e) => set("k")(e.target.value)} />
          </label>
          <label>
            recency
            <select value={form.recency} onChange={(e) => set("recency")(e.target.value)}>
              {RECENCY_FUNCTIONS.map((f) => (
                <option key={f}>{f}</option>
              ))}
            </select>
          </label>
          {form.recency !== "inverse" && (
            <label>
              {form.recency === "exponential" ? "half-life (days)" : "scale (days)"}
              <input
                type="number"
                min="0.1"
                step="any"
                value={form.recencyDays}
                onChange={(e) => set("recencyDays")(e.target.value)}
              />
            </label>
          )}
          <label>
            src prefix
            <input value={form.srcPrefix} onChange={(e) => set("srcPrefix")(e.target.value)} />
          </label>
          <label>
            doc ids
            <input value={form.docIds} onChange={(e) => set("docIds")(e.target.value)} />
          </label>
          <label>
            tags (any)
            <input value={form.tagsAny} onChange={(e) => set("tagsAny")(e.target.value)} />
          </label>
          <label>
            API key
            <input type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
          </label>
        </div>
        <button type="submit">Search</button>
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <Results response={response} onMoreLikeThis={moreLikeThis} />
      <footer>
        <a href="/docs">API documentation</a>
      </footer>
    </main>
  );
}
