-- Embedding spaces: one table of vectors per space, each with its own HNSW index.
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
    EXECUTE format('ALTER TABLE rag.%I ALTER COLUMN embedding SET STORAGE PLAIN', v_table);
    PERFORM api.create_space_index(v_space.id);
    RETURN v_space;
END
$$;

-- The HNSW index of a space (cosine), with the m / ef_construction it was registered with.
CREATE OR REPLACE FUNCTION api.create_space_index(p_space_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_space rag.spaces;
BEGIN
    SELECT * INTO STRICT v_space FROM rag.spaces WHERE id = p_space_id;
    EXECUTE format(
        'CREATE INDEX IF NOT EXISTS %I ON rag.%I USING hnsw (embedding vector_cosine_ops)
             WITH (m = %s, ef_construction = %s)',
        api.vector_table(p_space_id) || '_hnsw', api.vector_table(p_space_id),
        v_space.hnsw_m, v_space.hnsw_ef_construction);
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
