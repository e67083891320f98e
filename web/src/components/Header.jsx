// The question box (with the demo's questions as suggestions) and the API key.

import { useState } from "react";

export function SearchBox({ value, onChange, onSubmit, samples, hint, loading }) {
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
        placeholder="Ask a question, e.g. how do I parse JSON?"
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <datalist id="suggestions">
        {samples.map((sample) => (
          <option key={sample.text} value={sample.text} />
        ))}
      </datalist>
      <button type="submit" aria-busy={loading}>
        {loading ? "Searching…" : "Search"}
      </button>
      <p className="hint" data-testid="mode-hint">
        {hint}
      </p>
    </form>
  );
}

// The key is applied when submitted (not at every keystroke) and kept for this tab only.
export function KeyField({ apiKey, onApply, needed }) {
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
      />
      <button type="submit">Use key</button>
    </form>
  );
}
