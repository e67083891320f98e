// Numbers as the page shows them.

export const fixed = (value: number | null | undefined, digits = 3): string =>
  value === null || value === undefined ? "–" : Number(value).toFixed(digits);

export const percent = (value: number): string => `${Math.round(value * 100)}%`;

export function age(days: number | null | undefined): string {
  if (days === null || days === undefined) return "";
  if (days < 1) return "today";
  if (days < 60) return `${Math.round(days)} days old`;
  if (days < 730) return `${Math.round(days / 30.4)} months old`;
  return `${(days / 365.25).toFixed(1)} years old`;
}

// Whether a source opens as a link: a web address only. A stored src is anyone's text
// (another tenant's, a file's): javascript:, data: or file: addresses stay text.
export function linkable(src: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(src).protocol);
  } catch {
    return false;
  }
}

// A source URL as a reader scans it: host and path, without the scheme; any other source
// as it is stored (a javascript: or data: address stripped of its scheme would pass for a
// path).
export function sourceLabel(src: string): string {
  if (!linkable(src)) return src;
  try {
    const url = new URL(src);
    return `${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  } catch {
    return src;
  }
}
