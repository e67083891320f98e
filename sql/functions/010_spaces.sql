-- Embedding spaces: one table of vectors per space, each with its own HNSW index.
--
-- The index is over l2_normalize(embedding)::halfvec(dims) (see
-- sql/schema/0003_halfvec_index.sql for why); api.ann_order_sql() writes the ORDER BY
-- expression that matches it, and every nearest-neighbour query goes through it.
--
-- A table per space (rather than one shared table with partial expression indexes)
-- gives every space a typed vector(dims) column, a plain B-tree lookup by chunk, and an
-- HNSW index the planner uses without any expression matching. Signals and other chunk
-- attributes live in rag.chunks, so updating them never touches a vector or an HNSW index.

CREATE OR REPLACE FUNCTION api.vector_table(p_space_id integer)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT 'vectors_' || p_space_id $$;

CREATE OR REPLACE FUNCTION api.register_space(
    p_name text,
    p_dims integer,
    p_model text,
    p_description text,
    p_hnsw_m integer,
    p_hnsw_ef_construction integer
) RETURNS rag.spaces
LANGUAGE plpgsql
AS $$
DECLARE
    v_space rag.spaces;
    v_table text;
BEGIN
    INSERT INTO rag.spaces (name, dims, model, description, hnsw_m, hnsw_ef_construction)
    VALUES (p_name, p_dims, coalesce(p_model, ''), coalesce(p_description, ''),
            p_hnsw_m, p_hnsw_ef_construction)
    RETURNING * INTO v_space;

    v_table := api.vector_table(v_space.id);
    EXECUTE format(
        'CREATE TABLE rag.%I (
             chunk_pk  bigint PRIMARY KEY REFERENCES rag.chunks (id) ON DELETE CASCADE,
             embedding vector(%s) NOT NULL)',
        v_table, p_dims);
    -- Up to 2,000 dimensions a vector fits in a heap page: keep it inline, so that
    -- scoring a candidate reads one tuple and never a TOAST chunk.
    IF p_dims <= 2000 THEN
        EXECUTE format('ALTER TABLE rag.%I ALTER COLUMN embedding SET STORAGE PLAIN', v_table);
    END IF;
    PERFORM api.create_space_index(v_space.id);
    RETURN v_space;
END
$$;

-- The HNSW index of a space (cosine over normalised halfvec), with the m /
-- ef_construction it was registered with.
CREATE OR REPLACE FUNCTION api.create_space_index(p_space_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_space rag.spaces;
BEGIN
    SELECT * INTO STRICT v_space FROM rag.spaces WHERE id = p_space_id;
    EXECUTE format(
        'CREATE INDEX IF NOT EXISTS %I ON rag.%I USING hnsw
             ((l2_normalize(embedding)::halfvec(%s)) halfvec_cosine_ops)
             WITH (m = %s, ef_construction = %s)',
        api.vector_table(p_space_id) || '_hnsw', api.vector_table(p_space_id),
        v_space.dims, v_space.hnsw_m, v_space.hnsw_ef_construction);
END
$$;

-- Bulk loads drop the index first and build it once at the end (much faster than
-- inserting row by row into the graph).
CREATE OR REPLACE FUNCTION api.drop_space_index(p_space_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    EXECUTE format('DROP INDEX IF EXISTS rag.%I', api.vector_table(p_space_id) || '_hnsw');
END
$$;

-- Rebuild any HNSW index a bulk load left missing (an interrupted load); returns the
-- names of the spaces whose index was created.
CREATE OR REPLACE FUNCTION api.ensure_space_indexes()
RETURNS SETOF text
LANGUAGE plpgsql
AS $$
DECLARE
    v_space rag.spaces;
BEGIN
    FOR v_space IN SELECT * FROM rag.spaces ORDER BY id LOOP
        IF to_regclass(format('rag.%I', api.vector_table(v_space.id) || '_hnsw')) IS NULL THEN
            PERFORM api.create_space_index(v_space.id);
            RETURN NEXT v_space.name;
        END IF;
    END LOOP;
END
$$;

CREATE OR REPLACE FUNCTION api.drop_space(p_name text)
RETURNS boolean
LANGUAGE plpgsql
AS $$
DECLARE
    v_id integer;
BEGIN
    DELETE FROM rag.spaces WHERE name = p_name RETURNING id INTO v_id;
    IF v_id IS NULL THEN
        RETURN false;
    END IF;
    EXECUTE format('DROP TABLE rag.%I', api.vector_table(v_id));
    RETURN true;
END
$$;

-- Spaces with their vector counts, in registry order.
CREATE OR REPLACE FUNCTION api.space_stats()
RETURNS TABLE (name text, dims integer, model text, description text, vectors bigint)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_space rag.spaces;
BEGIN
    FOR v_space IN SELECT * FROM rag.spaces ORDER BY id LOOP
        name := v_space.name;
        dims := v_space.dims;
        model := v_space.model;
        description := v_space.description;
        EXECUTE format('SELECT count(*) FROM rag.%I', api.vector_table(v_space.id)) INTO vectors;
        RETURN NEXT;
    END LOOP;
END
$$;

-- The distance the HNSW index of a space orders by, between alias.embedding and the
-- query vector expression p_query: the planner uses the index only for this exact form.
-- It differs from the float32 cosine distance by less than api.ann_distance_error().
CREATE OR REPLACE FUNCTION api.ann_order_sql(p_alias text, p_query text, p_dims integer)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT format('l2_normalize(%s.embedding)::halfvec(%s) <=> l2_normalize(%s)::halfvec(%s)',
                  p_alias, p_dims, p_query, p_dims)
$$;

-- Rounding both unit vectors to half precision (relative error 2^-11 per component)
-- moves their cosine by at most about 4 * 2^-11 ~ 0.002; bounds use twice that.
CREATE OR REPLACE FUNCTION api.ann_distance_error()
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT 0.004::float8 $$;
