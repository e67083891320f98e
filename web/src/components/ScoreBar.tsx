// A row's score as a stacked bar of its parts: the weighted components, or with fusion
// rrf what each component's rank adds (and the ranks themselves, in words).

import type { SearchRow, Weights } from "../api/client";
import { fixed } from "../lib/format";
import { COMPONENTS, barParts } from "../lib/scores";

export interface Scoring {
  weights: Weights;
  fusion: string;
  rrfK: number;
}

function spaceLines(row: SearchRow): string[] {
  return Object.entries(row.per_space_scores ?? {}).map(([space, score]) => `space ${space}: cosine ${fixed(score)}`);
}

export function ScoreBar({ row, scoring }: { row: SearchRow; scoring: Scoring }) {
  const parts = barParts(row, scoring.weights, scoring.fusion, scoring.rrfK);
  const title = [...parts.map((part) => part.text), ...spaceLines(row)].join("\n");
  const rrf = scoring.fusion === "rrf";
  return (
    <>
      <div className="scorebar" title={title} aria-label={`score ${fixed(row.score, rrf ? 4 : 3)}: ${title}`}>
        <div className="bar">
          {parts.map((part) =>
            part.share > 0 ? (
              <span
                key={part.key}
                data-component={part.key}
                style={{ width: `${Math.min(100, part.share * 100)}%`, background: part.color }}
              />
            ) : null,
          )}
        </div>
        <span className="score">{fixed(row.score, rrf ? 4 : 3)}</span>
      </div>
      {rrf && (
        <p className="ranks" data-testid="ranks">
          ranks:{" "}
          {COMPONENTS.filter((c) => (scoring.weights[c.weight] ?? 0) > 0)
            .map((c) => `${c.label} ${row.ranks?.[c.key] ?? "—"}`)
            .join(" · ")}
        </p>
      )}
    </>
  );
}

export function Legend() {
  return (
    <p className="legend">
      {COMPONENTS.map(({ key, label, color }) => (
        <span key={key}>
          <i style={{ background: color }} /> {label}
        </span>
      ))}
    </p>
  );
}
