// The head of the controls' drawer on a phone: opening it moves the focus in, Done or
// Escape closes it and gives the focus back to the button that opened it.

import { useEffect, useRef } from "react";

export function DrawerHead({ open, onClose }: { open: boolean; onClose: () => void }) {
  const done = useRef<HTMLButtonElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  // Once per opening (not per render: the page re-renders under an open drawer).
  useEffect(() => {
    if (!open) return undefined;
    done.current?.focus();
    const opener = document.querySelector<HTMLElement>(".drawer-toggle");
    function onKey(event: KeyboardEvent) {
      if (event.key !== "Escape") return;
      close.current();
      opener?.focus();
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);
  return (
    <div className="drawer-head">
      <h2>Filters &amp; weights</h2>
      <button ref={done} type="button" onClick={onClose}>
        Done
      </button>
    </div>
  );
}
