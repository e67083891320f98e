// The page's keys: "/" puts the cursor in the question; the arrow keys move between the
// results (their title links, which Enter opens).

import { useEffect } from "react";

const TYPING = "input, textarea, select, [contenteditable]";

function resultLinks(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(".result .result-title")];
}

function moveThroughResults(event: KeyboardEvent, target: HTMLElement) {
  const links = resultLinks();
  if (!links.length) return;
  const inResults = target.closest(".results");
  if (!inResults && target !== document.body) return;
  event.preventDefault();
  const row = target.closest(".result");
  const current = row ? links.findIndex((link) => row.contains(link)) : -1;
  const step = event.key === "ArrowDown" ? 1 : -1;
  const next = current < 0 ? 0 : Math.min(links.length - 1, Math.max(0, current + step));
  links[next]?.focus();
}

export function useKeyboard() {
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target instanceof HTMLElement ? event.target : document.body;
      if (target.closest(TYPING)) return;
      if (event.key === "/") {
        event.preventDefault();
        const question = document.getElementById("q") as HTMLInputElement | null;
        question?.focus();
        question?.select();
      } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        moveThroughResults(event, target);
      }
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}
