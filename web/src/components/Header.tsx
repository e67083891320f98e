// The question box (with the demo's questions as suggestions) and the API key.

import { useState } from "react";
import type { Examples } from "../api/client";
import { FieldError, invalidProps } from "./Field";

interface SearchBoxProps {
  value: string;
  onChange: (q: string) => void;
  onSubmit: () => void;
  samples: Examples["queries"];
  hint: string;
  loading: boolean;
  error: string | undefined;
}

export function SearchBox({ value, onChange, onSubmit, samples, hint, loading, error }: SearchBoxProps) {
  return (
    <form
      className="searchbox"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <label htmlFor="q" className="visually-hidden">
        Question
      </label>
      <input
        id="q"
        type="search"
        list="suggestions"
        placeholder="Ask a question"
        autoComplete="off"
        enterKeyHint="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...invalidProps("q", error)}
      />
      <datalist id="suggestions">
        {samples.map((sample) => (
          <option key={sample.text} value={sample.text} />
        ))}
      </datalist>
      <button type="submit" aria-busy={loading}>
        {loading ? "Searching…" : "Search"}
      </button>
      <FieldError id="q" error={error} />
      <p className="hint" data-testid="mode-hint">
        {hint}{" "}
        <span className="keys">
          <kbd>/</kbd> finds this box, <kbd>↑</kbd> <kbd>↓</kbd> the results.
        </span>
      </p>
    </form>
  );
}

interface KeyFieldProps {
  apiKey: string;
  onApply: (key: string) => void;
  needed: boolean;
  unchecked: boolean; // the server is open: it checks no key
}

// The key is applied when submitted (not at every keystroke) and kept for this tab only.
export function KeyField({ apiKey, onApply, needed, unchecked }: KeyFieldProps) {
  const [draft, setDraft] = useState(apiKey);
  return (
    <form
      className={needed ? "keyfield needed" : "keyfield"}
      onSubmit={(e) => {
        e.preventDefault();
        onApply(draft.trim());
      }}
    >
      <label htmlFor="api-key">API key</label>
      <input
        id="api-key"
        type="password"
        autoComplete="off"
        value={draft}
        placeholder={needed ? "required" : "optional"}
        onChange={(e) => setDraft(e.target.value)}
        aria-describedby={unchecked && apiKey ? "key-note" : undefined}
      />
      <button type="submit">Use key</button>
      {unchecked && apiKey && (
        <p className="key-note" id="key-note" data-testid="key-note">
          This server checks no key (it is open, on this machine only): the key is not used.
        </p>
      )}
    </form>
  );
}
