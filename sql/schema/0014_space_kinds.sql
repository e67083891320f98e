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

-- The embedding cache keeps a multivector's token vectors as an array (a whole
-- multivector is longer than one vector may be).
ALTER TABLE rag.embedding_cache
    ALTER COLUMN embedding DROP NOT NULL,
    ADD COLUMN tokens vector[],
    ADD CONSTRAINT embedding_cache_one_value CHECK (num_nonnulls(embedding, tokens) = 1);

-- What a sparse space's terms are worth in a collection (app/search/terms.py weighs a
-- question's terms by their inverse document frequency): how many of the collection's
-- vectors hold each term, and how many vectors there are. Kept by statement triggers on
-- every sparse space's vector table (api.register_space creates them) under the
-- collection's row lock that chunk writes already take, so that concurrent writers to one
-- collection never deadlock over terms.
CREATE TABLE rag.sparse_terms (
    space_id      integer NOT NULL REFERENCES rag.spaces (id) ON DELETE CASCADE,
    collection_id integer NOT NULL REFERENCES rag.collections (id) ON DELETE CASCADE,
    term          integer NOT NULL,
    vectors       bigint NOT NULL,
    PRIMARY KEY (space_id, collection_id, term)
);

CREATE TABLE rag.sparse_totals (
    space_id      integer NOT NULL REFERENCES rag.spaces (id) ON DELETE CASCADE,
    collection_id integer NOT NULL REFERENCES rag.collections (id) ON DELETE CASCADE,
    vectors       bigint NOT NULL,
    PRIMARY KEY (space_id, collection_id)
);

-- A sparse vector's term ids, from 0 (its text form counts from 1).
CREATE FUNCTION rag.sparse_term_ids(p_vector sparsevec)
RETURNS SETOF integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT split_part(entry, ':', 1)::integer - 1
    FROM string_to_table(btrim(split_part(p_vector::text, '/', 1), '{}'), ',') AS entry
    WHERE entry <> ''
$$;

-- A statement's vectors added to the counts (inserted), taken away (deleted), or both
-- (updated); TG_ARGV[0] is the space's id.
CREATE FUNCTION rag.sparse_vectors_changed() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    v_changed text := CASE TG_OP
        WHEN 'INSERT' THEN 'SELECT collection_id, embedding, 1 AS sign FROM new_vectors'
        WHEN 'DELETE' THEN 'SELECT collection_id, embedding, -1 AS sign FROM old_vectors'
        ELSE 'SELECT collection_id, embedding, 1 AS sign FROM new_vectors
              UNION ALL SELECT collection_id, embedding, -1 FROM old_vectors' END;
BEGIN
    EXECUTE format('SELECT 1 FROM rag.collections WHERE id IN (SELECT collection_id FROM (%s) c)
                    ORDER BY id FOR UPDATE', v_changed);
    EXECUTE format(
        'WITH changed AS MATERIALIZED (%s),
         terms AS (
             INSERT INTO rag.sparse_terms AS t (space_id, collection_id, term, vectors)
             SELECT $1, collection_id, term, sum(sign)
             FROM changed, rag.sparse_term_ids(embedding) AS term
             GROUP BY collection_id, term ORDER BY collection_id, term
             ON CONFLICT (space_id, collection_id, term)
             DO UPDATE SET vectors = t.vectors + excluded.vectors)
         INSERT INTO rag.sparse_totals AS t (space_id, collection_id, vectors)
         SELECT $1, collection_id, sum(sign) FROM changed
         GROUP BY collection_id ORDER BY collection_id
         ON CONFLICT (space_id, collection_id) DO UPDATE SET vectors = t.vectors + excluded.vectors',
        v_changed) USING TG_ARGV[0]::integer;
    RETURN NULL;
END
$$;
