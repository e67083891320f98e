// The blend, the result options and the filters. Weights left alone stay unset (the
// profile's or the server's default applies) and show the value the last answer used.

import { fixed } from "../lib/format.js";

function WeightSlider({ id, label, hint, value, used, onChange }) {
  const shown = value ?? used ?? 0;
  return (
    <div className="control">
      <label htmlFor={id}>
        {label}{" "}
        <b>{value === null ? `default${used === undefined ? "" : ` (${fixed(used, 2)})`}` : fixed(value, 2)}</b>
      </label>
      <input
        id={id}
        type="range"
        min="0"
        max="1"
        step="0.05"
        value={shown}
        onChange={(e) => onChange(Number(e.target.value))}
      />
      <div className="hint">
        {hint}
        {value !== null && (
          <button type="button" className="link" onClick={() => onChange(null)}>
            reset
          </button>
        )}
      </div>
    </div>
  );
}

function Field({ id, label, children, hint }) {
  return (
    <div className="control">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <div className="hint">{hint}</div>}
    </div>
  );
}

// The vector share of the relevance weight in the last answer (w_cos / (w_cos + w_lex)).
function usedBalance(weights) {
  if (!weights || weights.w_lex === undefined) return undefined;
  const relevance = weights.w_cos + weights.w_lex;
  return relevance > 0 ? weights.w_cos / relevance : undefined;
}

export function BlendControls({ state, update, weights, profiles, recencyFunctions, mode }) {
  return (
    <fieldset>
      <legend>Blend</legend>
      <Field id="profile" label="Profile" hint="Weights stored under a name; auto reads the question's own results first.">
        <select id="profile" value={state.profile} onChange={(e) => update({ profile: e.target.value })}>
          <option value="">server default</option>
          <option value="auto">auto (balance from the question's evidence)</option>
          {profiles.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
        </select>
      </Field>
      <WeightSlider
        id="balance"
        label="Vectors vs keywords"
        hint={mode === "hybrid" ? "0 = keywords only, 1 = vectors only." : "Needs a question with a vector."}
        value={state.balance}
        used={usedBalance(weights)}
        onChange={(balance) => update({ balance })}
      />
      <WeightSlider
        id="w_rec"
        label="Freshness (w_rec)"
        hint="How much newer chunks win."
        value={state.wRec}
        used={weights?.w_rec}
        onChange={(wRec) => update({ wRec })}
      />
      <WeightSlider
        id="w_sig"
        label="Signal (w_sig)"
        hint="How much well-rated chunks win."
        value={state.wSig}
        used={weights?.w_sig}
        onChange={(wSig) => update({ wSig })}
      />
      <div className="row2">
        <Field id="recency" label="Recency decay">
          <select id="recency" value={state.recency} onChange={(e) => update({ recency: e.target.value })}>
            <option value="">default</option>
            {recencyFunctions.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </Field>
        <Field id="recency_days" label={state.recency === "exponential" ? "Half-life (days)" : "Scale (days)"}>
          <input
            id="recency_days"
            type="number"
            min="0.1"
            step="any"
            disabled={!state.recency}
            value={state.recencyDays}
            onChange={(e) => update({ recencyDays: e.target.value })}
          />
        </Field>
      </div>
      <Field id="fusion" label="Fusion" hint="rrf: reciprocal rank fusion of each component's ranking.">
        <select id="fusion" value={state.fusion} onChange={(e) => update({ fusion: e.target.value })}>
          <option value="weighted">weighted sum</option>
          <option value="rrf">reciprocal rank (rrf)</option>
        </select>
      </Field>
    </fieldset>
  );
}

export function ResultControls({ state, update }) {
  return (
    <fieldset>
      <legend>Results</legend>
      <div className="row2">
        <Field id="k" label="Rows per page">
          <input id="k" type="number" min="1" max="50" value={state.k} onChange={(e) => update({ k: e.target.value })} />
        </Field>
        <Field id="max_per_source" label="Max per source">
          <input
            id="max_per_source"
            type="number"
            min="0"
            placeholder="default"
            value={state.maxPerSource ?? ""}
            onChange={(e) => update({ maxPerSource: e.target.value === "" ? null : Number(e.target.value) })}
          />
        </Field>
      </div>
      <Field id="diversity" label={`Diversity ${fixed(state.diversity, 2)}`} hint="0 = off; higher = less alike rows (MMR).">
        <input
          id="diversity"
          type="range"
          min="0"
          max="1"
          step="0.05"
          value={state.diversity}
          onChange={(e) => update({ diversity: Number(e.target.value) })}
        />
      </Field>
    </fieldset>
  );
}

export function FilterControls({ state, update, collections }) {
  const text = (key) => ({ value: state[key], onChange: (e) => update({ [key]: e.target.value }) });
  return (
    <fieldset>
      <legend>Filters</legend>
      <Field id="collection" label="Collection">
        <select id="collection" {...text("collection")}>
          {(collections.length ? collections : [{ name: state.collection }]).map((c) => (
            <option key={c.name}>{c.name}</option>
          ))}
        </select>
      </Field>
      <Field id="src_prefix" label="Source starts with">
        <input id="src_prefix" placeholder="https://docs.python.org/" {...text("srcPrefix")} />
      </Field>
      <Field id="tags" label="Tags (any of, comma separated)">
        <input id="tags" placeholder="json, csv" {...text("tags")} />
      </Field>
      <div className="row2">
        <Field id="after" label="Created from">
          <input id="after" type="date" {...text("after")} />
        </Field>
        <Field id="before" label="Created before">
          <input id="before" type="date" {...text("before")} />
        </Field>
      </div>
      <Field id="filter" label="Metadata filter (JSON)" hint={'e.g. {"license": {"$in": ["PSF-2.0"]}}'}>
        <textarea id="filter" rows="2" spellCheck="false" {...text("filter")} />
      </Field>
    </fieldset>
  );
}
