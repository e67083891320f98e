// A labelled control with its hint and, when it has one, its error beside it.

import type { ReactNode } from "react";
import type { FieldId } from "../lib/validate";

export const errorId = (id: string) => `${id}-error`;

// The attributes that tie a control to its error.
export const invalidProps = (id: FieldId, error: string | undefined) =>
  error ? { "aria-invalid": true, "aria-describedby": errorId(id) } : {};

export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p className="field-error" id={errorId(id)} aria-live="polite">
      {error}
    </p>
  );
}

interface FieldProps {
  id: FieldId;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}

export function Field({ id, label, hint, error, children }: FieldProps) {
  return (
    <div className={error ? "control invalid" : "control"}>
      <label htmlFor={id}>{label}</label>
      {children}
      <FieldError id={id} error={error} />
      {hint && <div className="hint">{hint}</div>}
    </div>
  );
}
