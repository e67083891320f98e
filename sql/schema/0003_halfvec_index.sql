-- The HNSW index of a space is built over half-precision copies of the unit vectors,
-- l2_normalize(embedding)::halfvec(dims), with halfvec_cosine_ops. Measured on this
-- project's benchmark (bench/search_bench.py, README "Performance"): at the same build
-- cost it reaches a higher recall and answers faster than an index over float32
-- vectors, at half the size; normalising first keeps every component within halfvec's
-- range whatever the scale of the stored vector. Scores are still computed from the
-- stored float32 vectors. halfvec also lifts the dimension limit of an index from
-- 2,000 to 4,000.

ALTER TABLE rag.spaces DROP CONSTRAINT spaces_dims_check;
ALTER TABLE rag.spaces ADD CONSTRAINT spaces_dims_check CHECK (dims BETWEEN 1 AND 4000);

DO $$
DECLARE
    v_space rag.spaces;
    v_table text;
BEGIN
    FOR v_space IN SELECT * FROM rag.spaces ORDER BY id LOOP
        v_table := 'vectors_' || v_space.id;
        EXECUTE format('DROP INDEX IF EXISTS rag.%I', v_table || '_hnsw');
        EXECUTE format(
            'CREATE INDEX %I ON rag.%I USING hnsw
                 ((l2_normalize(embedding)::halfvec(%s)) halfvec_cosine_ops)
                 WITH (m = %s, ef_construction = %s)',
            v_table || '_hnsw', v_table, v_space.dims, v_space.hnsw_m,
            v_space.hnsw_ef_construction);
    END LOOP;
END
$$;
