import { useEffect, useRef, useState } from "react";
import { BlendControls, FilterControls, ResultControls } from "./components/Controls.jsx";
import { KeyField, SearchBox } from "./components/Header.jsx";
import { Pager } from "./components/Pager.jsx";
import { Legend, Results } from "./components/Results.jsx";
import { Summary } from "./components/Summary.jsx";
import { WhyNot } from "./components/WhyNot.jsx";
import { explain, thumbsUp } from "./lib/api.js";
import { hasQuery, stateFromUrl, urlFromState } from "./lib/query.js";
import { KEY_STORAGE, loadServerInfo, modeHint } from "./lib/session.js";
import { queryTerms } from "./lib/text.js";
import { useSearch } from "./lib/useSearch.js";

const RERUN_DELAY_MS = 300;

function useWhyNot(apiKey, result) {
  const [chunkId, setChunkId] = useState("");
  const [answer, setAnswer] = useState(null);
  const [error, setError] = useState("");
  async function ask(id) {
    setChunkId(id);
    setError("");
    setAnswer(null);
    if (!result) return setError("Search first: the chunk is explained for the current search.");
    try {
      setAnswer(await explain({ ...result.body, chunk_id: id }, apiKey));
    } catch (caught) {
      setError(caught.message);
    }
  }
  return { chunkId, setChunkId, answer, error, ask };
}

export default function App() {
  const [state, setState] = useState(() => stateFromUrl(window.location.search));
  const [apiKey, setApiKey] = useState(() => sessionStorage.getItem(KEY_STORAGE) || "");
  const [info, setInfo] = useState(null);
  const [infoError, setInfoError] = useState(null);
  const [rerun, setRerun] = useState(0);
  const { result, error, loading, run, setError } = useSearch();
  const whyNot = useWhyNot(apiKey, result);
  // A search asked for before the server's details are rendered (from the URL, or Enter
  // pressed at once) runs once they are, with the state as it is by then.
  const latestState = useRef(state);
  latestState.current = state;
  const waiting = useRef(hasQuery(state));

  function go(next, key = apiKey, server = info) {
    if (!hasQuery(next)) return;
    if (!server) {
      waiting.current = true;
      return;
    }
    window.history.replaceState(null, "", urlFromState(next) || window.location.pathname);
    run(next, { ...server, apiKey: key });
  }

  function update(patch) {
    setState((current) => ({ ...current, offset: 0, ...patch }));
    setRerun((n) => n + 1);
  }

  useEffect(() => {
    loadServerInfo(apiKey)
      .then((loaded) => {
        setInfo(loaded);
        setInfoError(null);
      })
      .catch(setInfoError);
  }, [apiKey]);

  // Run from the render that shows the details, not from their arrival: an Enter pressed
  // between the two still sees no details (its handler is the previous render's) and
  // only asks to wait; this is where that wait ends.
  useEffect(() => {
    if (info && waiting.current) {
      waiting.current = false;
      go(latestState.current, apiKey, info);
    }
  }, [info]);

  useEffect(() => {
    if (!rerun || (!result && !error)) return undefined;
    const timer = setTimeout(() => go(state), RERUN_DELAY_MS);
    return () => clearTimeout(timer);
  }, [rerun]);

  function applyKey(key) {
    sessionStorage.setItem(KEY_STORAGE, key);
    setError(null);
    setInfo(null);
    waiting.current = hasQuery(state);
    setApiKey(key);
  }

  const actions = {
    moreLikeThis: (row) => {
      const next = { ...state, likeDoc: row.doc_id, likeChunk: row.chunk_id, offset: 0 };
      setState(next);
      go(next);
    },
    whyNot: (chunkId) => {
      whyNot.ask(chunkId);
      document.getElementById("whynot-title")?.scrollIntoView({ behavior: "smooth" });
    },
    thumbsUp: async (row) => {
      try {
        await thumbsUp(row.chunk_id, state.collection, apiKey);
        go(state);
        return true;
      } catch (caught) {
        setError(caught);
        return false;
      }
    },
  };

  const shownError = error || infoError;
  const keyNeeded = shownError && [401, 403].includes(shownError.status);
  const liking = state.likeDoc && state.likeChunk;
  return (
    <>
      <header className="top">
        <h1>
          <img src="/favicon.svg" alt="" width="28" height="28" /> ragsearch
        </h1>
        <KeyField apiKey={apiKey} onApply={applyKey} needed={keyNeeded} />
      </header>
      <div className="layout">
        <section className="content">
          <SearchBox
            value={state.q}
            onChange={(q) => setState((s) => ({ ...s, q, likeDoc: "", likeChunk: "", offset: 0 }))}
            onSubmit={() => go(state)}
            samples={info ? info.samples : []}
            hint={modeHint(info)}
            loading={loading}
          />
          {liking && (
            <p className="banner" data-testid="like-banner">
              More like <b>{state.likeChunk}</b> of {state.likeDoc} (the chunk itself left out).{" "}
              <button type="button" className="link" onClick={() => update({ likeDoc: "", likeChunk: "" })}>
                back to the question
              </button>
            </p>
          )}
          {shownError && (
            <p className="error" role="alert">
              {shownError.message}
              {keyNeeded && " — enter an API key above."}
            </p>
          )}
          {result && !shownError && (
            <div className={loading ? "answer loading" : "answer"} aria-busy={loading}>
              <Summary result={result} apiKey={apiKey} />
              <Legend />
              <Results
                rows={result.response.rows}
                offset={result.state.offset}
                terms={queryTerms(result.mode === "vector" ? "" : result.state.q)}
                actions={actions}
              />
              <Pager offset={result.state.offset} k={result.state.k} rows={result.response.rows.length} onPage={(offset) => update({ offset })} />
            </div>
          )}
          <WhyNot {...whyNot} onExplain={whyNot.ask} />
        </section>
        <aside className="controls" aria-label="Search options">
          <BlendControls
            state={state}
            update={update}
            weights={result?.response.weights}
            profiles={info ? info.profiles : []}
            recencyFunctions={info ? info.recencyFunctions : []}
            mode={result?.mode}
          />
          <ResultControls state={state} update={update} />
          <FilterControls state={state} update={update} collections={info ? info.collections : []} />
        </aside>
      </div>
      <footer>
        <a href="/docs">API documentation</a> · <a href="/redoc">ReDoc</a>
      </footer>
    </>
  );
}
