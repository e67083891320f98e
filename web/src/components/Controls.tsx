// The blend, the result options and the filters. Weights left alone stay unset (the
// profile's or the server's default applies) and show the value the server will use:
// its default before the first search, the last answer's after it.

import type { ReactNode } from "react";
import type { Weights } from "../api/client";
import { fixed } from "../lib/format";
import type { ServerInfo } from "../lib/server";
import { recencyText } from "../lib/server";
import type { Mode, SearchState } from "../lib/state";
import type { FieldErrors, FieldId } from "../lib/validate";
import { Field, invalidProps } from "./Field";

type Update = (patch: Partial<SearchState>) => void;

interface SliderProps {
  id: FieldId;
  label: string;
  hint: ReactNode;
  value: number | null;
  serverValue: number; // what the server uses while the slider is left alone
  chosenBy: string; // who chooses while it is left alone: "default" or "auto"
  error?: string;
  onChange: (value: number | null) => void;
}

function WeightSlider({ id, label, hint, value, serverValue, chosenBy, error, onChange }: SliderProps) {
  const shown = value ?? serverValue;
  const text = value === null ? `${chosenBy} ${fixed(serverValue, 2)}` : fixed(value, 2);
  return (
    <Field
      id={id}
      label={
        <>
          {label} <b>{text}</b>
        </>
      }
      error={error}
      hint={
        <>
          {hint}
          {value !== null && (
            <button type="button" className="link" onClick={() => onChange(null)}>
              reset
            </button>
          )}
        </>
      }
    >
      <input
        id={id}
        type="range"
        min="0"
        max="1"
        step="0.05"
        value={shown}
        onChange={(e) => onChange(Number(e.target.value))}
        {...invalidProps(id, error)}
      />
    </Field>
  );
}

// The vector share of the relevance weight in an answer (w_cos / (w_cos + w_lex)).
function usedBalance(weights: Weights | undefined): number | undefined {
  if (!weights || weights.w_lex === undefined || weights.w_lex === null) return undefined;
  const relevance = weights.w_cos + weights.w_lex;
  return relevance > 0 ? weights.w_cos / relevance : undefined;
}

interface BlendProps {
  state: SearchState;
  update: Update;
  used: Weights | undefined; // the last answer's weights
  mode: Mode | undefined;
  info: ServerInfo | null;
  errors: FieldErrors;
}

// Typed questions with no profile are classified (profile auto), which picks the balance.
const autoBalance = (state: SearchState) => state.profile === "auto" || (!state.profile && Boolean(state.q.trim()));

export function BlendControls({ state, update, used, mode, info, errors }: BlendProps) {
  const defaults = info?.defaults;
  const balanceHint = info?.embedder
    ? "0 = keywords only, 1 = vectors only."
    : "Typed questions have no vector here: the balance applies to the suggested questions and More like this.";
  return (
    <fieldset>
      <legend>Blend</legend>
      <Field id="profile" label="Profile" error={errors.profile} hint="Weights stored under a name; auto reads the question's own results first.">
        <select id="profile" value={state.profile} onChange={(e) => update({ profile: e.target.value })} {...invalidProps("profile", errors.profile)}>
          <option value="">server default</option>
          <option value="auto">auto (balance from the question's evidence)</option>
          {(info?.profiles ?? []).map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
        </select>
      </Field>
      <WeightSlider
        id="balance"
        label="Vectors vs keywords"
        hint={balanceHint}
        value={state.balance}
        serverValue={(mode === "hybrid" ? usedBalance(used) : undefined) ?? defaults?.hybrid_vector_weight ?? 0.5}
        chosenBy={autoBalance(state) ? "auto" : "default"}
        error={errors.balance}
        onChange={(balance) => update({ balance })}
      />
      <WeightSlider
        id="w_rec"
        label="Freshness (w_rec)"
        hint="How much newer chunks win."
        value={state.wRec}
        serverValue={used?.w_rec ?? defaults?.w_rec ?? 0}
        chosenBy="default"
        error={errors.w_rec}
        onChange={(wRec) => update({ wRec })}
      />
      <WeightSlider
        id="w_sig"
        label="Signal (w_sig)"
        hint="How much well-rated chunks win."
        value={state.wSig}
        serverValue={used?.w_sig ?? defaults?.w_sig ?? 0}
        chosenBy="default"
        error={errors.w_sig}
        onChange={(wSig) => update({ wSig })}
      />
      <div className="row2">
        <Field
          id="recency"
          label="Recency decay"
          error={errors.recency}
          hint={defaults && <span data-testid="recency-default">default: {recencyText(defaults.recency)}</span>}
        >
          <select id="recency" value={state.recency} onChange={(e) => update({ recency: e.target.value })} {...invalidProps("recency", errors.recency)}>
            <option value="">default</option>
            {(info?.recencyFunctions ?? []).map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </Field>
        <Field id="recency_days" label={state.recency === "exponential" ? "Half-life (days)" : "Scale (days)"} error={errors.recency_days}>
          <input
            id="recency_days"
            type="number"
            min="0"
            step="any"
            disabled={!state.recency}
            value={state.recency ? state.recencyDays : ""}
            placeholder={state.recency ? "" : String(defaults?.recency.half_life_days ?? defaults?.recency.scale_days ?? "")}
            onChange={(e) => update({ recencyDays: e.target.value })}
            {...invalidProps("recency_days", errors.recency_days)}
          />
        </Field>
      </div>
      <Field id="fusion" label="Fusion" error={errors.fusion} hint="rrf: reciprocal rank fusion of each component's ranking.">
        <select id="fusion" value={state.fusion} onChange={(e) => update({ fusion: e.target.value === "rrf" ? "rrf" : "weighted" })}>
          <option value="weighted">weighted sum</option>
          <option value="rrf">reciprocal rank (rrf)</option>
        </select>
      </Field>
    </fieldset>
  );
}

interface OptionProps {
  state: SearchState;
  update: Update;
  info: ServerInfo | null;
  errors: FieldErrors;
}

export function ResultControls({ state, update, info, errors }: OptionProps) {
  const cap = info?.defaults.max_per_source;
  return (
    <fieldset>
      <legend>Results</legend>
      <div className="row2">
        <Field id="k" label="Rows per page" error={errors.k}>
          <input
            id="k"
            type="number"
            min="1"
            max={info?.defaults.max_k ?? 50}
            value={state.k}
            onChange={(e) => update({ k: e.target.value })}
            {...invalidProps("k", errors.k)}
          />
        </Field>
        <Field id="max_per_source" label="Max per source" error={errors.max_per_source}>
          <input
            id="max_per_source"
            type="number"
            min="0"
            placeholder={cap === undefined ? "default" : `default ${cap}`}
            value={state.maxPerSource}
            onChange={(e) => update({ maxPerSource: e.target.value })}
            {...invalidProps("max_per_source", errors.max_per_source)}
          />
        </Field>
      </div>
      <Field id="diversity" label={`Diversity ${fixed(state.diversity, 2)}`} error={errors.diversity} hint="0 = off; higher = less alike rows (MMR).">
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

export function FilterControls({ state, update, info, errors }: OptionProps) {
  const text = (key: "collection" | "srcPrefix" | "tags" | "after" | "before" | "filter", id: FieldId) => ({
    value: state[key],
    onChange: (e: { target: { value: string } }) => update({ [key]: e.target.value }),
    ...invalidProps(id, errors[id]),
  });
  const collections = info?.collections.length ? info.collections.map((c) => c.name) : [state.collection];
  return (
    <fieldset>
      <legend>Filters</legend>
      <Field id="collection" label="Collection" error={errors.collection}>
        <select id="collection" {...text("collection", "collection")}>
          {collections.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      </Field>
      <Field id="src_prefix" label="Source starts with" error={errors.src_prefix}>
        <input id="src_prefix" placeholder="https://docs.python.org/" {...text("srcPrefix", "src_prefix")} />
      </Field>
      <Field id="tags" label="Tags (any of, comma separated)" error={errors.tags}>
        <input id="tags" placeholder="json, csv" {...text("tags", "tags")} />
      </Field>
      <div className="row2">
        <Field id="after" label="Created from" error={errors.after}>
          <input id="after" type="date" {...text("after", "after")} />
        </Field>
        <Field id="before" label="Created before" error={errors.before}>
          <input id="before" type="date" {...text("before", "before")} />
        </Field>
      </div>
      <Field id="filter" label="Metadata filter (JSON)" error={errors.filter} hint={'e.g. {"license": {"$in": ["PSF-2.0"]}}'}>
        <textarea id="filter" rows={2} spellCheck={false} {...text("filter", "filter")} />
      </Field>
    </fieldset>
  );
}
