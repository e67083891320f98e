-- Bookkeeping: which version of sql/functions is installed (checked by /readyz).
CREATE TABLE rag.installed_functions (
    singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    digest     text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
);
