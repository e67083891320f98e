import { useEffect, useRef, useState } from "react";
import { ApiError } from "./api/client";
import type { DialogHandle } from "./components/AddDocuments";
import { AddDocuments } from "./components/AddDocuments";
import { BlendControls, FilterControls, ResultControls } from "./components/Controls";
import { DiagnosticsPanel, SummaryLine } from "./components/Diagnostics";
import { DrawerHead } from "./components/Drawer";
import { FacetPanel } from "./components/Facets";
import { KeyField, SearchBox } from "./components/Header";
import { NoRows, StaleNote, WeakMatch } from "./components/Notices";
import { Pager } from "./components/Pager";
import type { RowActions } from "./components/Results";
import { Results } from "./components/Results";
import { Legend } from "./components/ScoreBar";
import { useExplanations } from "./lib/explanations";
import { useFacets } from "./lib/facets";
import { useHeldBack } from "./lib/heldBack";
import { useKeyboard } from "./lib/keyboard";
import { weakBest } from "./lib/scores";
import type { ServerInfo } from "./lib/server";
import { KEY_STORAGE, loadServerInfo, modeHint } from "./lib/server";
import type { IngestItem } from "./lib/ingest";
import { isRunning, storedTitle } from "./lib/ingest";
import type { SearchState } from "./lib/state";
import { DEFAULTS, hasQuery, liking, stateFromUrl, urlFromState } from "./lib/state";
import { queryTerms } from "./lib/text";
import { useIngest } from "./lib/useIngest";
import { useSearch } from "./lib/useSearch";
import type { FieldErrors } from "./lib/validate";
import { controlOf, formErrors } from "./lib/validate";
import { useVotes } from "./lib/votes";

const RERUN_DELAY_MS = 300;
const EMPTY_QUESTION = "Type a question first, or pick a suggested one.";

type HistoryStep = "push" | "replace" | "none";

// Each search is a history entry (Back and Forward move between searches); a state that
// cannot run (a field is invalid) replaces the entry, so that its URL still reproduces it.
function writeUrl(state: SearchState, step: HistoryStep) {
  if (step === "none") return;
  const url = urlFromState(state) || window.location.pathname;
  const current = window.location.search || window.location.pathname;
  if (step === "push" && url !== current) window.history.pushState(null, "", url);
  else window.history.replaceState(null, "", url);
}

const DEFAULTS_MAX_K = 50; // until the server's limits have arrived
const limitsOf = (info: ServerInfo | null) => ({ maxK: info?.defaults.max_k ?? DEFAULTS_MAX_K });

export default function App() {
  const [state, setState] = useState(() => stateFromUrl(window.location.search));
  const [apiKey, setApiKey] = useState(() => sessionStorage.getItem(KEY_STORAGE) || "");
  const [info, setInfo] = useState<ServerInfo | null>(null);
  const [infoError, setInfoError] = useState<Error | null>(null);
  const [queryError, setQueryError] = useState("");
  const [rerun, setRerun] = useState(0);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [diagnosticsOpen, setDiagnosticsOpen] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  const adding = useRef<DialogHandle>(null);
  const ingest = useIngest(apiKey);
  const { answer, error, loading, run, clear, setError } = useSearch();
  const { explanations, toggle: explain } = useExplanations(answer, apiKey);
  const heldBack = useHeldBack(answer, info?.defaults.max_k ?? DEFAULTS_MAX_K, apiKey);
  const votes = useVotes(apiKey);
  const facets = useFacets(answer, apiKey);
  useKeyboard();

  // What handlers that outlive their render (history, timers, the details' arrival) read.
  const latest = useRef({ state, info, apiKey });
  latest.current = { state, info, apiKey };
  // A search asked for before the server's details are rendered runs once they are.
  const waiting = useRef<HistoryStep | null>(hasQuery(state) ? "replace" : null);
  const searched = useRef(hasQuery(state));

  function go(next: SearchState, step: HistoryStep = "push", server = latest.current.info, key = latest.current.apiKey) {
    if (!hasQuery(next)) return;
    searched.current = true;
    const invalid = Object.keys(formErrors(next, limitsOf(server))).length > 0;
    writeUrl(next, invalid && step === "push" ? "replace" : step);
    if (invalid) return;
    if (!server) {
      waiting.current = step;
      return;
    }
    run(next, server, key);
  }

  function update(patch: Partial<SearchState>) {
    setState((current) => ({ ...current, offset: 0, ...patch }));
    setRerun((n) => n + 1);
  }

  function goNow(next: SearchState) {
    setState(next);
    go(next);
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
  // between the two still sees no details and only asks to wait; the wait ends here.
  useEffect(() => {
    if (info && waiting.current) {
      const step = waiting.current;
      waiting.current = null;
      go(latest.current.state, step, info, apiKey);
    }
  }, [info]);

  useEffect(() => {
    if (!rerun || !searched.current) return undefined;
    const timer = setTimeout(() => go(latest.current.state), RERUN_DELAY_MS);
    return () => clearTimeout(timer);
  }, [rerun]);

  useEffect(() => {
    function onHistory() {
      const next = stateFromUrl(window.location.search);
      setState(next);
      setQueryError("");
      if (hasQuery(next)) go(next, "none");
      else clear();
    }
    window.addEventListener("popstate", onHistory);
    return () => window.removeEventListener("popstate", onHistory);
  }, []);

  function applyKey(key: string) {
    sessionStorage.setItem(KEY_STORAGE, key);
    setError(null);
    setInfo(null);
    waiting.current = hasQuery(state) ? "replace" : null;
    setApiKey(key);
  }

  function submit() {
    if (!hasQuery(state)) {
      setQueryError(EMPTY_QUESTION);
      return;
    }
    go({ ...state, offset: 0 });
  }

  // "Search for it": a fresh search for the stored document's title, in its collection.
  async function searchFor(item: IngestItem) {
    const title = item.title ?? (item.docId ? await storedTitle(item.docId, item.collection, apiKey) : null);
    adding.current?.close();
    setQueryError("");
    goNow({ ...DEFAULTS, q: title || item.docId || item.name, collection: item.collection });
  }

  const running = ingest.items.filter(isRunning).length;
  const actions: RowActions = {
    moreLikeThis: (row) => goNow({ ...state, likeDoc: row.doc_id, likeChunk: row.chunk_id, offset: 0 }),
    explain: (chunkId) => void explain(chunkId),
    useful: async (row) => {
      await votes.toggle(state.collection, row.chunk_id);
      go(state, "replace");
    },
    isUseful: (row) => votes.isMarked(state.collection, row.chunk_id),
  };

  const apiError = error instanceof ApiError ? error : null;
  const control = apiError ? controlOf(apiError) : null;
  const fieldErrors: FieldErrors = { ...formErrors(state, limitsOf(info)) };
  if (control && error) fieldErrors[control] = error.message;
  const invalid = Object.keys(fieldErrors).length > 0;
  const shownError = (control ? null : error) || infoError;
  const status = shownError instanceof ApiError ? shownError.status : 0;
  const keyNeeded = status === 401 || status === 403;
  const scoring = answer && {
    weights: answer.response.weights,
    fusion: answer.response.query_metadata.fusion,
    rrfK: info?.defaults.rrf_k ?? 60,
  };
  const weak = answer && info ? weakBest(answer.rows, answer.response.weights, answer.state.offset, info.defaults.low_confidence_score) : null;
  return (
    <>
      <header className="top">
        <h1>
          <img src="/favicon.svg" alt="" width="28" height="28" /> ragsearch
        </h1>
        <div className="header-actions">
          <button ref={addButton} type="button" className="add-button" aria-haspopup="dialog" onClick={() => adding.current?.open()}>
            Add documents{running ? ` · ${running} running` : ""}
          </button>
          <KeyField apiKey={apiKey} onApply={applyKey} needed={keyNeeded} unchecked={info?.keysRequired === false} />
        </div>
      </header>
      <AddDocuments
        handle={adding}
        onClose={() => addButton.current?.focus()}
        collections={(info?.collections ?? []).map((c) => c.name)}
        collection={state.collection || DEFAULTS.collection}
        apiKey={apiKey}
        ingest={ingest}
        onSearch={(item) => void searchFor(item)}
      />
      <div className="layout">
        <main className="content">
          <SearchBox
            value={state.q}
            onChange={(q) => {
              setQueryError("");
              setState((s) => ({ ...s, q, likeDoc: "", likeChunk: "", offset: 0 }));
            }}
            onSubmit={submit}
            samples={info ? info.samples : []}
            hint={modeHint(info)}
            loading={loading}
            error={queryError || fieldErrors.q}
          />
          {liking(state) && (
            <p className="banner" data-testid="like-banner">
              More like <b>{state.likeChunk}</b> of {state.likeDoc} (the chunk itself left out).{" "}
              <button type="button" className="link" onClick={() => goNow({ ...state, likeDoc: "", likeChunk: "", offset: 0 })}>
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
          <div className="toolbar">
            {answer && <SummaryLine answer={answer} />}
            {answer && (
              <button type="button" aria-expanded={diagnosticsOpen} aria-controls="diagnostics" onClick={() => setDiagnosticsOpen(!diagnosticsOpen)}>
                Why these results?
              </button>
            )}
            <button type="button" className="drawer-toggle" aria-expanded={drawerOpen} aria-controls="controls" onClick={() => setDrawerOpen(true)}>
              Filters &amp; weights{invalid ? " (fix a field)" : ""}
            </button>
          </div>
          {answer && diagnosticsOpen && <DiagnosticsPanel answer={answer} apiKey={apiKey} />}
          {answer && scoring && (
            <div className={loading ? "answer loading" : "answer"} aria-busy={loading}>
              {(invalid || error) && <StaleNote />}
              {weak !== null && info && <WeakMatch best={weak} floor={info.defaults.low_confidence_score} />}
              {answer.rows.length > 0 && <Legend />}
              {answer.rows.length ? (
                <Results
                  answer={answer}
                  terms={queryTerms(answer.mode === "vector" ? "" : answer.state.q)}
                  scoring={scoring}
                  actions={actions}
                  explanations={explanations}
                  heldBack={heldBack}
                  weak={weak !== null}
                />
              ) : (
                <NoRows offset={answer.state.offset} keywordsOnly={answer.mode === "keywords"} onFirstPage={() => goNow({ ...answer.state, offset: 0 })} />
              )}
              <Pager
                offset={answer.state.offset}
                k={Number(answer.state.k)}
                rows={answer.rows.length}
                hasNext={answer.hasNext}
                onPage={(offset) => goNow({ ...answer.state, offset })}
              />
            </div>
          )}
        </main>
        <aside id="controls" className={drawerOpen ? "controls open" : "controls"} aria-label="Search options">
          <DrawerHead open={drawerOpen} onClose={() => setDrawerOpen(false)} />
          <FacetPanel
            facets={facets}
            state={state}
            onPick={(next) => {
              setDrawerOpen(false);
              goNow(next);
            }}
          />
          <BlendControls state={state} update={update} used={answer?.response.weights} mode={answer?.mode} info={info} errors={fieldErrors} />
          <ResultControls state={state} update={update} info={info} errors={fieldErrors} />
          <FilterControls state={state} update={update} info={info} errors={fieldErrors} />
        </aside>
      </div>
      <footer>
        <a href="/docs">API documentation</a> · <a href="/redoc">ReDoc</a>
      </footer>
    </>
  );
}
