-- Weight profiles: named, versioned presets of the search weights. rag.profiles holds
-- the current version of each; rag.profile_versions every version ever written.
-- A NULL weight means "not set here": the search falls back to the default profile.

CREATE TABLE rag.profiles (
    name       text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_]{0,62}$'),
    version    integer NOT NULL,
    builtin    boolean NOT NULL DEFAULT false,
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE rag.profile_versions (
    name          text NOT NULL REFERENCES rag.profiles (name) ON DELETE CASCADE
                  DEFERRABLE INITIALLY DEFERRED,
    version       integer NOT NULL,
    w_cos         float8 CHECK (w_cos BETWEEN 0 AND 1),
    w_rec         float8 CHECK (w_rec BETWEEN 0 AND 1),
    w_sig         float8 CHECK (w_sig BETWEEN 0 AND 1),
    w_lex         float8 CHECK (w_lex BETWEEN 0 AND 1),
    space_weights jsonb NOT NULL DEFAULT '{}',
    recency       jsonb,
    description   text NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (name, version)
);

-- The built-in profiles. Their space weights are for a deployment with the twelve
-- spaces e1_semantic .. e12_late_interaction; other deployments get the rule in
-- app/weights.py (the weights of the spaces that exist, equal when none is named).
INSERT INTO rag.profiles (name, version, builtin)
VALUES ('semantic_search', 1, true), ('causal_reasoning', 1, true), ('code_search', 1, true),
       ('temporal_navigation', 1, true), ('fact_checking', 1, true), ('balanced', 1, true);

INSERT INTO rag.profile_versions (name, version, w_cos, w_rec, w_sig, space_weights, description)
SELECT p.name, 1, p.w_cos, p.w_rec, p.w_sig,
       (SELECT jsonb_object_agg(s.space, w.weight)
        FROM unnest(ARRAY['e1_semantic', 'e2_temporal_recent', 'e3_temporal_periodic',
                          'e4_temporal_positional', 'e5_causal', 'e6_sparse', 'e7_code',
                          'e8_graph', 'e9_hdc', 'e10_multimodal', 'e11_entity',
                          'e12_late_interaction']) WITH ORDINALITY AS s(space, i)
        JOIN unnest(p.weights) WITH ORDINALITY AS w(weight, i) USING (i)),
       p.description
FROM (VALUES
    ('semantic_search', 0.85, 0.05, 0.10,
     ARRAY[0.30, 0.05, 0.05, 0.05, 0.10, 0.05, 0.20, 0.05, 0.05, 0.05, 0.03, 0.02],
     'Meaning first: mostly the semantic and code spaces, little recency.'),
    ('causal_reasoning', 0.80, 0.05, 0.15,
     ARRAY[0.15, 0.03, 0.03, 0.03, 0.45, 0.03, 0.10, 0.03, 0.03, 0.05, 0.05, 0.02],
     'Causes and effects: the causal space leads; well-rated chunks count more.'),
    ('code_search', 0.85, 0.05, 0.10,
     ARRAY[0.15, 0.02, 0.02, 0.35, 0.05, 0.03, 0.25, 0.02, 0.02, 0.03, 0.03, 0.03],
     'Code: the positional and code spaces lead.'),
    ('temporal_navigation', 0.50, 0.40, 0.10,
     ARRAY[0.15, 0.20, 0.20, 0.20, 0.05, 0.02, 0.05, 0.02, 0.03, 0.03, 0.03, 0.02],
     'When things happened: the temporal spaces and recency weigh heavily.'),
    ('fact_checking', 0.75, 0.00, 0.25,
     ARRAY[0.10, 0.02, 0.02, 0.02, 0.20, 0.05, 0.05, 0.02, 0.02, 0.05, 0.43, 0.02],
     'Facts: the entity space leads; confidence (signal) matters, age does not.'),
    ('balanced', 0.60, 0.20, 0.20,
     ARRAY[0.083, 0.083, 0.083, 0.083, 0.083, 0.083, 0.083, 0.083, 0.083, 0.083, 0.083,
           0.087],
     'Every space alike; similarity, recency and signal all count.')
) AS p(name, w_cos, w_rec, w_sig, weights, description);
