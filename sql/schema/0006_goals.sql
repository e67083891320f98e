-- Goals: named reference vectors ("north_star"), at most one per embedding space, for
-- purpose alignment and purpose search.
CREATE TABLE rag.goals (
    name        text NOT NULL CHECK (name ~ '^[a-z][a-z0-9_]{0,62}$'),
    space_id    integer NOT NULL REFERENCES rag.spaces (id) ON DELETE CASCADE,
    embedding   vector NOT NULL,
    description text NOT NULL DEFAULT '',
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (name, space_id)
);
