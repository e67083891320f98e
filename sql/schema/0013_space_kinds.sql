-- Kinds of embedding space (app/spaces.py): dense (every space so far), sparse (sparsevec
-- over a vocabulary of `dims` terms, scored by cosine or inner product) and multivector
-- (token vectors, scored by MaxSim; at most max_tokens per chunk).

ALTER TABLE rag.spaces
    ADD COLUMN kind text NOT NULL DEFAULT 'dense'
        CHECK (kind IN ('dense', 'sparse', 'multivector')),
    ADD COLUMN metric text NOT NULL DEFAULT 'cosine'
        CHECK (metric IN ('cosine', 'inner_product')),
    ADD COLUMN max_tokens integer CHECK (max_tokens BETWEEN 1 AND 512);
ALTER TABLE rag.spaces DROP CONSTRAINT spaces_dims_check;
ALTER TABLE rag.spaces
    ADD CONSTRAINT spaces_dims_check
        CHECK (dims BETWEEN 1 AND CASE kind WHEN 'sparse' THEN 1000000000 ELSE 4000 END),
    ADD CONSTRAINT spaces_metric_kind_check CHECK (metric = 'cosine' OR kind = 'sparse'),
    ADD CONSTRAINT spaces_max_tokens_kind_check CHECK ((kind = 'multivector') = (max_tokens IS NOT NULL));
