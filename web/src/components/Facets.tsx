// How many of the chunks the search ranks from hold each tag, source and collection, each
// value a button that refines the search by it (lib/facets.ts says what a click does).

import { useState } from "react";
import type { Facet } from "../api/client";
import type { FacetCounts, FacetState } from "../lib/facets";
import { chosenTags, inCollection, withSource, withTag } from "../lib/facets";
import { sourceLabel } from "../lib/format";
import type { SearchState } from "../lib/state";

interface GroupProps {
  title: string;
  noun: string; // one value, in the button's accessible name
  facet: Facet;
  hint: string;
  label?: (value: string) => string;
  pressed: (value: string) => boolean;
  onPick: (value: string) => void;
}

const chunks = (n: number, exact: boolean) => `${exact ? "" : "at least "}${n.toLocaleString("en")} chunk${n === 1 ? "" : "s"}`;

function FacetGroup({ title, noun, facet, hint, label = (v) => v, pressed, onPick }: GroupProps) {
  const more = facet.distinct - facet.values.length;
  return (
    <div className="facet-group" data-testid={`facet-${noun}`}>
      <h3 title={hint}>{title}</h3>
      {facet.values.length === 0 ? (
        <p className="dim">none</p>
      ) : (
        <ul className="facet-values">
          {facet.values.map(({ value, chunks: n }) => {
            const text = String(value);
            return (
              <li key={text}>
                <button
                  type="button"
                  className="facet"
                  aria-pressed={pressed(text)}
                  aria-label={`${noun} ${text}: ${chunks(n, facet.exact)}`}
                  title={text}
                  onClick={() => onPick(text)}
                >
                  <bdi className="facet-label">{label(text)}</bdi>
                  <span className="count">
                    {facet.exact ? "" : "≥"}
                    {n.toLocaleString("en")}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {more > 0 && <p className="dim">and {more.toLocaleString("en")} more</p>}
    </div>
  );
}

function basis(counts: FacetCounts): string {
  const over = "the counts are over all of them, not only this page.";
  const total = chunks(counts.chunks, counts.exact);
  if (counts.keywordMatches) return `${total} hold a word of the question and pass the filters; ${over}`;
  if (counts.noWordMatched) return `No chunk holds a word of the question; ${total} pass the filters, and ${over}`;
  return `${total} pass the filters; ${over}`;
}

interface PanelProps {
  facets: FacetState;
  state: SearchState; // the form: a click refines what it holds
  onPick: (next: SearchState) => void;
}

// On a phone the panel opens folded (the drawer's controls stay on its first screen).
const NARROW = "(max-width: 820px)";
const foldedAtFirst = () => typeof window.matchMedia === "function" && window.matchMedia(NARROW).matches;

export function FacetPanel({ facets, state, onPick }: PanelProps) {
  const [open, setOpen] = useState(() => !foldedAtFirst());
  const { counts, failed, loading } = facets;
  if (!counts && !failed) return null;
  const tags = chosenTags(state);
  return (
    <details
      className={loading ? "facets loading" : "facets"}
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
      aria-busy={loading}
      data-testid="facets"
    >
      <summary>
        Refine
        {counts && (
          <span className="dim" data-testid="facet-total">
            {" "}
            · {chunks(counts.chunks, counts.exact)}
          </span>
        )}
      </summary>
      {failed && <p className="field-error">The counts could not be had: {failed}</p>}
      {counts && (
        <>
          <p className="hint" data-testid="facet-basis">
            {basis(counts)}
          </p>
          <FacetGroup
            title="Tags"
            noun="tag"
            facet={counts.tags}
            hint="Counted as if no tag were chosen: a click adds the tag to the tags (any of), or takes it out."
            pressed={(tag) => tags.includes(tag)}
            onPick={(tag) => onPick(withTag(state, tag))}
          />
          <FacetGroup
            title="Sources"
            noun="source"
            facet={counts.src}
            hint="A click keeps only the chunks whose source starts with this one; again, every source."
            label={sourceLabel}
            pressed={(src) => state.srcPrefix === src}
            onPick={(src) => onPick(withSource(state, src))}
          />
          <FacetGroup
            title="Collections"
            noun="collection"
            facet={counts.collection}
            hint="The same search in each collection this key may read."
            pressed={(name) => state.collection === name}
            onPick={(name) => name !== state.collection && onPick(inCollection(state, name))}
          />
        </>
      )}
    </details>
  );
}
