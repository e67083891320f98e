-- Embedding spaces: one table of vectors per space, partitioned by collection, each
-- partition with its own HNSW index.
--
-- The index is over l2_normalize(embedding)::halfvec(dims) (see
-- sql/schema/0003_halfvec_index.sql for why); api.ann_order_sql() writes the ORDER BY
-- expression that matches it, and every nearest-neighbour query uses that form.
--
-- A table per space (rather than one shared table with partial expression indexes)
-- gives every space a typed vector(dims) column, a plain B-tree lookup by chunk, and an
-- HNSW index the planner uses without any expression matching. Signals and other chunk
-- attributes live in rag.chunks, so updating them never touches a vector or an index.
-- Each space also gets functions of its own with its table and dimensions written in
-- (sql/functions/space_functions.sql), so that its searches run from cached plans.

CREATE FUNCTION api.vector_table(p_space_id integer)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT 'vectors_' || p_space_id $$;

CREATE FUNCTION api.vector_partition(p_space_id integer, p_collection_id integer)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT 'vectors_' || p_space_id || '_' || p_collection_id $$;

CREATE FUNCTION api.hnsw_index(p_space_id integer, p_collection_id integer)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT api.vector_partition(p_space_id, p_collection_id) || '_hnsw' $$;

-- What a space's HNSW index orders by, per kind: dense vectors and multivector tokens
-- normalised in half precision (cosine); sparse vectors as they are, by cosine or inner
-- product, the ones with more non-zero entries than the index takes left out (read
-- exactly by the searches: see space_functions.sql).
CREATE FUNCTION api.space_index_sql(s rag.spaces)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
    SELECT CASE s.kind
        WHEN 'sparse' THEN format('(embedding sparsevec_%s_ops) WITH (m = %s, ef_construction = %s)
                                   WHERE nnz <= 1000',
                                  CASE s.metric WHEN 'cosine' THEN 'cosine' ELSE 'ip' END,
                                  s.hnsw_m, s.hnsw_ef_construction)
        ELSE format('((l2_normalize(embedding)::halfvec(%s)) halfvec_cosine_ops)
                     WITH (m = %s, ef_construction = %s)',
                    s.dims, s.hnsw_m, s.hnsw_ef_construction)
    END
$$;

-- The columns of a space's vector table, per kind.
CREATE FUNCTION api.vector_columns_sql(s rag.spaces)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
    SELECT CASE s.kind
        WHEN 'sparse' THEN format('embedding sparsevec(%s) NOT NULL, nnz integer NOT NULL,
                                   PRIMARY KEY (chunk_pk, collection_id)', s.dims)
        WHEN 'multivector' THEN format('ord smallint NOT NULL, embedding vector(%s) NOT NULL,
                                        PRIMARY KEY (chunk_pk, ord, collection_id)', s.dims)
        ELSE format('embedding vector(%s) NOT NULL, PRIMARY KEY (chunk_pk, collection_id)',
                    s.dims)
    END
$$;

-- The walk's check sample: 1 chunk in 100 of a collection by key (api.sample_predicate),
-- spread over it as keys are. A threshold search walks the sampled chunks nearer than its
-- walk's bound and scores them exactly; one the walk did not return proves the walk
-- passed chunks over (threshold.sql, api.walk_missed): by count, a walk that passed over
-- 0.03% of a collection of 1M chunks (0.3% of 100k) holds a sampled chunk 19 times in
-- 20, which the sample's graph finds as a walk finds chunks, nearly always. Each dense
-- space's vector table has a partial HNSW index over its sampled chunks (the same order
-- and graph settings as the collections' own), through which the check walks them in
-- order and stops at the bound: the few it needs cost a small graph's walk, where scoring
-- every sampled chunk read them all from memory on every search (about twice the time at
-- 100k: docs/performance/blend-profile.md).
CREATE FUNCTION api.sample_predicate()
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$ SELECT 'chunk_pk % 100 = 0' $$;

CREATE FUNCTION api.sample_index(p_space_id integer)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$ SELECT api.vector_table(p_space_id) || '_sample_'
              || left(md5(api.sample_predicate() || ' hnsw'), 8) $$;

-- The sample's partial HNSW index, named p_name, on p_table: a dense space's vector table
-- or a re-embed's shadow of it (s then carries the shadow's dimensions).
CREATE FUNCTION api.create_sample_index(s rag.spaces, p_table text, p_name text)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON rag.%I USING hnsw %s WHERE %s',
                   p_name, p_table, api.space_index_sql(s), api.sample_predicate());
END
$$;

-- The sample's index on a dense space's vector table (its partitions, the collections,
-- have it too), for each space that has none: a space registered, a space re-embedded
-- (its new table), and the spaces a database held before the sample (when the
-- functions are applied after an upgrade; built in the migration's transaction: a graph
-- of 1% of each space's vectors, about 1 s at 100k x 384 and growing with the size). A
-- re-embed builds its new table's beside the shadow (api.index_shadow_vectors). The index
-- is named after its definition (api.sample_index), so an index of another definition
-- (an earlier sample's) is found and dropped. Writes maintain it: a bulk load inserts its
-- 1% into the graph as it goes.
CREATE FUNCTION api.ensure_sample_indexes()
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_space rag.spaces;
    v_old name;
BEGIN
    FOR v_space IN SELECT * FROM rag.spaces s
                   WHERE s.kind = 'dense'
                     AND to_regclass(format('rag.%I', api.sample_index(s.id))) IS NULL
                   ORDER BY s.id LOOP
        FOR v_old IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                     WHERE i.indrelid = format('rag.%I', api.vector_table(v_space.id))::regclass
                       AND c.relname LIKE api.vector_table(v_space.id) || '\_sample%' LOOP
            EXECUTE format('DROP INDEX rag.%I', v_old);
        END LOOP;
        PERFORM api.create_sample_index(v_space, api.vector_table(v_space.id),
                                        api.sample_index(v_space.id));
    END LOOP;
END
$$;

-- The HNSW index of one collection's vectors in one space, with the m / ef_construction
-- the space was registered with.
CREATE FUNCTION api.create_space_index(p_space_id integer, p_collection_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_space rag.spaces;
BEGIN
    SELECT * INTO STRICT v_space FROM rag.spaces WHERE id = p_space_id;
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON rag.%I USING hnsw %s',
                   api.hnsw_index(p_space_id, p_collection_id),
                   api.vector_partition(p_space_id, p_collection_id),
                   api.space_index_sql(v_space));
END
$$;

CREATE FUNCTION api.space_index_exists(p_space_id integer, p_collection_id integer)
RETURNS boolean
LANGUAGE sql STABLE
AS $$ SELECT to_regclass(format('rag.%I', api.hnsw_index(p_space_id, p_collection_id))) IS NOT NULL $$;

-- Bulk loads drop a collection's index first and build it once at the end (much faster
-- than inserting row by row into the graph).
CREATE FUNCTION api.drop_space_index(p_space_id integer, p_collection_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    EXECUTE format('DROP INDEX IF EXISTS rag.%I', api.hnsw_index(p_space_id, p_collection_id));
END
$$;

-- The (space, collection) pairs whose HNSW index is missing (an interrupted bulk load).
-- (PL/pgSQL: Citus plans no query of a set-returning SQL function.)
CREATE FUNCTION api.missing_space_indexes()
RETURNS TABLE (space_id integer, space text, collection_id integer, collection text)
LANGUAGE plpgsql STABLE
AS $$
BEGIN
    RETURN QUERY
    SELECT s.id, s.name, c.id, c.name
    FROM rag.spaces s CROSS JOIN rag.collections c
    WHERE to_regclass(format('rag.%I', api.hnsw_index(s.id, c.id))) IS NULL
    ORDER BY s.id, c.id;
END
$$;

-- Build every missing HNSW index; returns "space/collection" of each one built.
CREATE FUNCTION api.ensure_space_indexes()
RETURNS SETOF text
LANGUAGE plpgsql
AS $$
DECLARE
    v_missing record;
BEGIN
    FOR v_missing IN SELECT * FROM api.missing_space_indexes() LOOP
        PERFORM api.create_space_index(v_missing.space_id, v_missing.collection_id);
        RETURN NEXT v_missing.space || '/' || v_missing.collection;
    END LOOP;
END
$$;

-- One collection's partition of one space's vectors, with its index.
CREATE FUNCTION api.create_vector_partition(p_space_id integer, p_collection_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_space rag.spaces := (SELECT s FROM rag.spaces s WHERE s.id = p_space_id);
BEGIN
    -- the column's storage comes from the space's table (api.register_space)
    EXECUTE format('CREATE TABLE rag.%I PARTITION OF rag.%I FOR VALUES IN (%s)',
                   api.vector_partition(p_space_id, p_collection_id),
                   api.vector_table(p_space_id), p_collection_id);
    PERFORM api.create_space_index(p_space_id, p_collection_id);
    IF v_space.kind = 'sparse' THEN  -- the vectors the HNSW index cannot take
        EXECUTE format('CREATE INDEX %I ON rag.%I (chunk_pk) WHERE nnz > 1000',
                       api.vector_partition(p_space_id, p_collection_id) || '_unindexed',
                       api.vector_partition(p_space_id, p_collection_id));
    END IF;
END
$$;

-- The triggers that keep a sparse space's term counts (rag.sparse_terms), one per kind of
-- statement (a statement trigger sees one transition table per event).
CREATE FUNCTION api.count_sparse_terms(p_space_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_event record;
BEGIN
    FOR v_event IN VALUES ('inserted', 'INSERT', 'NEW TABLE AS new_vectors'),
                          ('deleted', 'DELETE', 'OLD TABLE AS old_vectors'),
                          ('updated', 'UPDATE', 'OLD TABLE AS old_vectors NEW TABLE AS new_vectors')
    LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER %s ON rag.%I REFERENCING %s
                        FOR EACH STATEMENT EXECUTE FUNCTION rag.sparse_vectors_changed(%s)',
                       'sparse_terms_' || v_event.column1, v_event.column2,
                       api.vector_table(p_space_id), v_event.column3, p_space_id);
    END LOOP;
END
$$;

CREATE FUNCTION api.register_space(
    p_name text,
    p_dims integer,
    p_model text,
    p_description text,
    p_hnsw_m integer,
    p_hnsw_ef_construction integer,
    p_kind text DEFAULT 'dense',
    p_metric text DEFAULT 'cosine',
    p_max_tokens integer DEFAULT NULL
) RETURNS rag.spaces
LANGUAGE plpgsql
AS $$
DECLARE
    v_space rag.spaces;
    v_collection integer;
BEGIN
    INSERT INTO rag.spaces (name, dims, model, description, hnsw_m, hnsw_ef_construction,
                            kind, metric, max_tokens)
    VALUES (p_name, p_dims, coalesce(p_model, ''), coalesce(p_description, ''),
            p_hnsw_m, p_hnsw_ef_construction, p_kind, p_metric, p_max_tokens)
    RETURNING * INTO v_space;
    EXECUTE format(
        'CREATE TABLE rag.%I (collection_id integer NOT NULL, chunk_pk bigint NOT NULL, %s)
         PARTITION BY LIST (collection_id)',
        api.vector_table(v_space.id), api.vector_columns_sql(v_space));
    -- Up to 2,000 dimensions a vector fits in a heap page: keep it inline, so that
    -- scoring a candidate reads one tuple and never a TOAST chunk (partitions inherit it).
    IF v_space.kind <> 'sparse' AND p_dims <= 2000 THEN
        EXECUTE format('ALTER TABLE rag.%I ALTER COLUMN embedding SET STORAGE PLAIN',
                       api.vector_table(v_space.id));
    END IF;
    FOR v_collection IN SELECT id FROM rag.collections ORDER BY id LOOP
        PERFORM api.create_vector_partition(v_space.id, v_collection);
    END LOOP;
    PERFORM api.ensure_sample_indexes();
    IF v_space.kind = 'sparse' THEN
        PERFORM api.count_sparse_terms(v_space.id);
    END IF;
    PERFORM api.create_space_functions(v_space.id);
    PERFORM api.distribute_table(format('rag.%I', api.vector_table(v_space.id))::regclass);
    RETURN v_space;
END
$$;

-- Drop a space with its vectors and its goals' vectors; NULL when there is none. Returns
-- what went with it or still names it: the goals that lost their vector in it (those with
-- no vector left are gone) and the profiles whose current version weighs it (they keep
-- the weight: a space registered later under the name takes it).
CREATE FUNCTION api.drop_space(p_name text)
RETURNS jsonb
LANGUAGE plpgsql
AS $$
DECLARE
    v_id integer;
    v_job bigint;
    v_said jsonb;
BEGIN
    SELECT id INTO v_id FROM rag.spaces WHERE name = p_name FOR UPDATE;
    IF v_id IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT id INTO v_job FROM rag.jobs
    WHERE kind = 'reembed' AND space_id = v_id AND status IN ('queued', 'running')
    ORDER BY id LIMIT 1;
    IF v_job IS NOT NULL THEN  -- it would run on into tables no longer there
        PERFORM api.raise_conflict(
            format('space %s is being re-embedded (job %s): cancel the job first, or wait '
                   'for it to end', quote_literal(p_name), v_job),
            jsonb_build_object('job', v_job));
    END IF;
    SELECT jsonb_build_object(
        'goals_removed', coalesce(jsonb_agg(g.name ORDER BY g.name) FILTER (WHERE NOT g.kept),
                                  '[]'),
        'goals_losing_a_vector', coalesce(jsonb_agg(g.name ORDER BY g.name) FILTER (WHERE g.kept),
                                          '[]'),
        'profiles_weighing_it', coalesce((
            SELECT jsonb_agg(p.name ORDER BY p.name)
            FROM rag.profiles p
            JOIN rag.profile_versions v ON v.name = p.name AND v.version = p.version
            WHERE v.space_weights ? p_name), '[]'))
    INTO v_said
    FROM (SELECT g.name, EXISTS (SELECT 1 FROM rag.goals o  -- a vector in another space
                                 WHERE o.name = g.name AND o.space_id <> v_id) AS kept
          FROM rag.goals g WHERE g.space_id = v_id) g;
    -- the vectors first: the drop waits for the writers of the space to finish and holds
    -- off new ones, so none holds the term counts the row's delete cascades to
    EXECUTE format('DROP TABLE rag.%I', api.vector_table(v_id));
    DELETE FROM rag.spaces WHERE id = v_id;
    PERFORM api.drop_space_functions(v_id);
    PERFORM api.routing_changed();
    RETURN v_said;
END
$$;

-- Spaces with their vector counts in one collection, in registry order.
CREATE FUNCTION api.space_stats(p_collection_ids integer[])
RETURNS TABLE (name text, dims integer, model text, description text, vectors bigint)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_space rag.spaces;
    v_count bigint;
    v_collection integer;
BEGIN
    FOR v_space IN SELECT * FROM rag.spaces ORDER BY id LOOP
        name := v_space.name;
        dims := v_space.dims;
        model := v_space.model;
        description := v_space.description;
        vectors := 0;
        FOREACH v_collection IN ARRAY p_collection_ids LOOP
            EXECUTE format('SELECT count(DISTINCT chunk_pk) FROM rag.%I',
                           api.vector_partition(v_space.id, v_collection)) INTO v_count;
            vectors := vectors + v_count;
        END LOOP;
        RETURN NEXT;
    END LOOP;
END
$$;

-- The distance the HNSW index of a space orders by, between alias.embedding and the
-- query vector expression p_query: the planner uses the index only for this exact form.
-- It differs from the float32 cosine distance by at most api.ann_distance_error(dims).
CREATE FUNCTION api.ann_order_sql(p_alias text, p_query text, p_dims integer)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT format('l2_normalize(%s.embedding)::halfvec(%s) <=> %s', p_alias, p_dims, p_query)
$$;

-- How far the index's distance (half precision) can be from the exact cosine distance,
-- for unit vectors of p_dims components. Rounding a unit vector x to half precision
-- (unit roundoff 2^-11; subnormal components off by at most 2^-25 each) moves it by
-- |e| <= 2^-11 + sqrt(dims) * 2^-25, which turns it by an angle of at most arcsin |e|;
-- the angle between the two rounded vectors is then within 2 arcsin |e| of the exact
-- one, and the cosine, 1-Lipschitz in the angle, moves as much. The float32 sums of the
-- dot product and the two norms add at most 3 * dims * 2^-24.
CREATE FUNCTION api.ann_distance_error(p_dims integer)
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT 2 * asin(2 ^ -11 + sqrt(p_dims) * 2 ^ -25) + 3 * p_dims * 2 ^ -24
$$;
