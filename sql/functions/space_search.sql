-- Single-space search: the plain nearest-neighbour query of one embedding space (the
-- HNSW index at ef_search, or an exact scan), with optional filters. The service checks
-- the space and the vector (app/search/space.py); p_collection is the filter's
-- collection, an argument of its own for routing.

CREATE FUNCTION api.space_topk(
    p_collection integer,
    p_space_id integer,
    p_vector vector,
    p_k integer,
    p_min_similarity float8,
    p_filter api.search_filter,
    p_filtered boolean,
    p_ef_search integer,
    p_exact boolean
) RETURNS json
LANGUAGE plpgsql
SET hnsw.iterative_scan = 'strict_order'
AS $$
DECLARE
    v_started timestamptz := clock_timestamp();
    v_ids bigint[];
    v_sims float8[];
    v_rows json;
BEGIN
    PERFORM set_config('hnsw.ef_search', p_ef_search::text, true);
    IF p_exact THEN
        -- the float32 distance matches no index: ordering by it scans exactly
        EXECUTE format(
            'SELECT coalesce(array_agg(id), ''{}''), coalesce(array_agg(sim), ''{}'')
             FROM (SELECT v.chunk_pk AS id, 1 - (v.embedding <=> $2) AS sim
                   FROM rag.%I v JOIN rag.chunks c ON c.id = v.chunk_pk
                                                 AND c.collection_id = v.collection_id
                   WHERE v.collection_id = ($1).collection_id AND %s
                   ORDER BY v.embedding <=> $2, c.chunk_id LIMIT %s) n',
            api.vector_table(p_space_id), api.filter_sql(p_filter, '$1'), p_k)
        INTO v_ids, v_sims USING p_filter, p_vector;
    ELSE
        SELECT n.ids, n.sims INTO v_ids, v_sims
        FROM api.space_nearest(p_space_id, p_vector, p_k, p_filter, p_filtered) n;
    END IF;
    SELECT coalesce(json_agg(json_build_object(
               'chunk_id', c.chunk_id, 'doc_id', c.doc_id, 'src', c.src, 'chunk', c.chunk,
               'model', c.model, 'similarity', u.sim, 'created_at', c.created_at)
             ORDER BY u.n), '[]'::json)
    INTO v_rows
    FROM unnest(v_ids, v_sims) WITH ORDINALITY AS u(id, sim, n)
    JOIN rag.chunks c ON c.id = u.id AND c.collection_id = p_filter.collection_id
    WHERE p_min_similarity IS NULL OR u.sim >= p_min_similarity;
    RETURN json_build_object(
        'rows', v_rows,
        'meta', json_build_object(
            'strategy', CASE WHEN p_exact THEN 'scan' ELSE 'hnsw' END,
            'exact', p_exact,
            'search_time_ms', api.elapsed_ms(v_started)));
END
$$;
