-- Single-space search: the plain nearest-neighbour query of one embedding space (the
-- HNSW index at the request's ef_search, or an exact scan), with optional filters.

CREATE FUNCTION api.space_topk(
    p_space text,
    p_vector vector,
    p_k integer,
    p_min_similarity float8 DEFAULT NULL,
    p_filters jsonb DEFAULT '{}',
    p_options jsonb DEFAULT '{}',
    p_collection text DEFAULT 'default'
) RETURNS json
LANGUAGE plpgsql
SET hnsw.iterative_scan = 'strict_order'
AS $$
DECLARE
    v_started timestamptz := clock_timestamp();
    v_space rag.spaces;
    v_filter api.search_filter;
    v_exact boolean := coalesce((p_options ->> 'exact')::boolean, false);
    v_ids bigint[];
    v_sims float8[];
    v_rows json;
BEGIN
    SELECT * INTO v_space FROM rag.spaces WHERE name = p_space;
    IF NOT FOUND THEN
        PERFORM api.raise_invalid_space(p_space);
    END IF;
    IF vector_dims(p_vector) <> v_space.dims THEN
        PERFORM api.raise_bad_argument('query_dimension_mismatch', jsonb_build_object(
            'message', format('query_embedding has %s dimensions; space "%s" has %s',
                              vector_dims(p_vector), p_space, v_space.dims),
            'space', p_space, 'expected', v_space.dims, 'actual', vector_dims(p_vector)));
    END IF;
    v_filter := api.make_filter(api.collection_id(coalesce(p_collection, 'default')),
                                coalesce(p_filters, '{}'));
    PERFORM set_config('hnsw.ef_search', api.search_knob(p_options, 'ef_search') #>> '{}', true);
    IF v_exact THEN
        -- the float32 distance matches no index: ordering by it scans exactly
        EXECUTE format(
            'SELECT coalesce(array_agg(id), ''{}''), coalesce(array_agg(sim), ''{}'')
             FROM (SELECT v.chunk_pk AS id, 1 - (v.embedding <=> $2) AS sim
                   FROM rag.%I v JOIN rag.chunks c ON c.id = v.chunk_pk
                                                 AND c.collection_id = v.collection_id
                   WHERE v.collection_id = ($1).collection_id AND %s
                   ORDER BY v.embedding <=> $2, c.chunk_id LIMIT %s) n',
            api.vector_table(v_space.id), api.filter_sql(v_filter, '$1'), p_k)
        INTO v_ids, v_sims USING v_filter, p_vector;
    ELSE
        SELECT n.ids, n.sims INTO v_ids, v_sims
        FROM api.space_nearest(v_space.id, p_vector, p_k, v_filter,
                               coalesce(p_filters, '{}') <> '{}') n;
    END IF;
    SELECT coalesce(json_agg(json_build_object(
               'chunk_id', c.chunk_id, 'doc_id', c.doc_id, 'src', c.src, 'chunk', c.chunk,
               'model', c.model, 'similarity', u.sim, 'created_at', c.created_at)
             ORDER BY u.n), '[]'::json)
    INTO v_rows
    FROM unnest(v_ids, v_sims) WITH ORDINALITY AS u(id, sim, n)
    JOIN rag.chunks c ON c.id = u.id AND c.collection_id = v_filter.collection_id
    WHERE p_min_similarity IS NULL OR u.sim >= p_min_similarity;
    RETURN json_build_object(
        'rows', v_rows,
        'meta', json_build_object(
            'strategy', CASE WHEN v_exact THEN 'scan' ELSE 'hnsw' END,
            'exact', v_exact,
            'search_time_ms', api.elapsed_ms(v_started)));
END
$$;
