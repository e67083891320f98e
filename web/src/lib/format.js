// Numbers as the page shows them.

export const fixed = (value, digits = 3) =>
  value === null || value === undefined ? "–" : Number(value).toFixed(digits);

export const percent = (value) => `${Math.round(Number(value) * 100)}%`;

export function age(days) {
  if (days === null || days === undefined) return "";
  if (days < 1) return "today";
  if (days < 60) return `${Math.round(days)} days old`;
  if (days < 730) return `${Math.round(days / 30.4)} months old`;
  return `${(days / 365.25).toFixed(1)} years old`;
}

export const COMPONENTS = [
  { key: "sem", label: "semantic", color: "#2f6fb0" },
  { key: "lex", label: "keywords", color: "#e09f3e" },
  { key: "rec", label: "recency", color: "#4a9d6b" },
  { key: "sig", label: "signal", color: "#9b5fb0" },
];
