-- Functions of each embedding space, generated with the space's table and dimensions
-- written in: a search's per-space statements are then static SQL, planned once per
-- connection and run from PL/pgSQL's plan cache with binary parameters.
--
--   api.space_<id>_nearest(q, depth, filter, filtered) -> (id, sim), nearest first
--       the HNSW walk (iterative scan, strict order: the caller sets hnsw.*), with the
--       filter applied during the walk when "filtered"; sim is the exact float32 cosine
--       similarity (the walk orders by the half-precision one, within
--       api.ann_distance_error()).
--   api.space_<id>_sims(q, collection, ids) -> float8[]
--       the cosine similarity of each chunk id to q, aligned with ids (NULL: no vector);
--   api.space_<id>_l2(q, collection, ids) -> float8[]
--       the same for the Euclidean distance (the response's l2_dist).
--
-- The planner is kept on the index paths (sorts, bitmaps, hashes and sequential scans
-- disabled inside them): on a collection loaded a moment ago there are no statistics yet,
-- and no other plan answers these statements better.

CREATE FUNCTION api.space_function(p_space_id integer, p_kind text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT format('space_%s_%s', p_space_id, p_kind) $$;

CREATE FUNCTION api.create_space_functions(p_space_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_dims integer := (SELECT dims FROM rag.spaces WHERE id = p_space_id);
    v_table text := api.vector_table(p_space_id);
    v_order text := api.ann_order_sql('v', 'v_q', v_dims);
BEGIN
    EXECUTE format($f$
        CREATE FUNCTION api.%1$I(
            p_q vector, p_depth integer, p_filter api.search_filter, p_filtered boolean)
        RETURNS TABLE (id bigint, sim float8)
        LANGUAGE plpgsql STABLE
        SET enable_sort = off SET enable_bitmapscan = off SET enable_seqscan = off
        AS $body$
        DECLARE
            v_q halfvec(%2$s) := l2_normalize(p_q)::halfvec(%2$s);
        BEGIN
            IF NOT p_filtered THEN
                RETURN QUERY
                SELECT v.chunk_pk, (1 - (v.embedding <=> p_q))::float8
                FROM rag.%3$I v
                WHERE v.collection_id = (p_filter).collection_id
                ORDER BY %4$s LIMIT p_depth;
            ELSE
                RETURN QUERY
                SELECT v.chunk_pk, (1 - (v.embedding <=> p_q))::float8
                FROM rag.%3$I v
                JOIN rag.chunks c ON c.id = v.chunk_pk AND c.collection_id = v.collection_id
                WHERE v.collection_id = (p_filter).collection_id
                  AND api.passes(p_filter, c.doc_id, c.src, c.tags, c.created_at, c.meta)
                ORDER BY %4$s LIMIT p_depth;
            END IF;
        END
        $body$
        $f$,
        api.space_function(p_space_id, 'nearest'), v_dims, v_table, v_order);
    EXECUTE format($f$
        CREATE FUNCTION api.%1$I(p_q vector, p_collection integer, p_ids bigint[])
        RETURNS float8[]
        LANGUAGE plpgsql STABLE
        SET enable_hashjoin = off SET enable_mergejoin = off SET enable_seqscan = off
        AS $body$
        BEGIN
            RETURN ARRAY(
                SELECT (1 - (v.embedding <=> p_q))::float8
                FROM unnest(p_ids) WITH ORDINALITY AS u(id, n)
                LEFT JOIN rag.%2$I v ON v.chunk_pk = u.id AND v.collection_id = p_collection
                ORDER BY u.n);
        END
        $body$
        $f$,
        api.space_function(p_space_id, 'sims'), v_table);
    EXECUTE format($f$
        CREATE FUNCTION api.%1$I(p_q vector, p_collection integer, p_ids bigint[])
        RETURNS float8[]
        LANGUAGE plpgsql STABLE
        SET enable_hashjoin = off SET enable_mergejoin = off SET enable_seqscan = off
        AS $body$
        BEGIN
            RETURN ARRAY(
                SELECT (v.embedding <-> p_q)::float8
                FROM unnest(p_ids) WITH ORDINALITY AS u(id, n)
                LEFT JOIN rag.%2$I v ON v.chunk_pk = u.id AND v.collection_id = p_collection
                ORDER BY u.n);
        END
        $body$
        $f$,
        api.space_function(p_space_id, 'l2'), v_table);
END
$$;

CREATE FUNCTION api.drop_space_functions(p_space_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    EXECUTE format('DROP FUNCTION IF EXISTS api.%I(vector, integer, api.search_filter, boolean)',
                   api.space_function(p_space_id, 'nearest'));
    EXECUTE format('DROP FUNCTION IF EXISTS api.%I(vector, integer, bigint[])',
                   api.space_function(p_space_id, 'sims'));
    EXECUTE format('DROP FUNCTION IF EXISTS api.%I(vector, integer, bigint[])',
                   api.space_function(p_space_id, 'l2'));
END
$$;

-- Dispatch to a space's functions.
CREATE FUNCTION api.space_nearest(
    p_space_id integer, p_q vector, p_depth integer, p_filter api.search_filter,
    p_filtered boolean
) RETURNS TABLE (id bigint, sim float8)
LANGUAGE plpgsql STABLE
AS $$
BEGIN
    RETURN QUERY EXECUTE format('SELECT * FROM api.%I($1, $2, $3, $4)',
                                api.space_function(p_space_id, 'nearest'))
    USING p_q, p_depth, p_filter, p_filtered;
END
$$;

-- p_kind: sims or l2.
CREATE FUNCTION api.space_measure(p_kind text, p_space_id integer, p_q vector,
                                  p_collection integer, p_ids bigint[])
RETURNS float8[]
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_values float8[];
BEGIN
    IF coalesce(cardinality(p_ids), 0) = 0 THEN
        RETURN '{}';
    END IF;
    EXECUTE format('SELECT api.%I($1, $2, $3)', api.space_function(p_space_id, p_kind))
    INTO v_values USING p_q, p_collection, p_ids;
    RETURN v_values;
END
$$;

CREATE FUNCTION api.space_sims(p_space_id integer, p_q vector, p_collection integer,
                               p_ids bigint[])
RETURNS float8[]
LANGUAGE sql STABLE
AS $$ SELECT api.space_measure('sims', p_space_id, p_q, p_collection, p_ids) $$;

SELECT api.create_space_functions(id) FROM rag.spaces ORDER BY id;
