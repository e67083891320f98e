-- Single-space search: the plain nearest-neighbour query of one embedding space (its HNSW
-- index at ef_search, or an exact scan with strategy scan), with optional filters. The
-- plan has the one space (index 1); the service builds and checks it
-- (app/search/space.py); p_collection is the plan's collection, for routing.

CREATE FUNCTION api.space_topk(p_collection integer, p api.search_plan, p_min_similarity float8)
RETURNS json
LANGUAGE plpgsql
SET hnsw.iterative_scan = 'strict_order'
SET plan_cache_mode = 'force_generic_plan'
AS $$
DECLARE
    v_started timestamptz := clock_timestamp();
    v_exact boolean := p.strategy = 'scan';
    v_ids bigint[];
    v_sims float8[];
    v_rows json;
BEGIN
    PERFORM set_config('plan_cache_mode', api.search_plans_mode(), true);
    PERFORM set_config('hnsw.ef_search', p.ef_search::text, true);
    IF v_exact THEN
        -- every chunk that passes the filter, scored exactly
        EXECUTE format(
            'SELECT coalesce(array_agg(id), ''{}''), coalesce(array_agg(sim), ''{}'')
             FROM (SELECT c.id, %1$s AS sim FROM rag.chunks c %2$s
                   WHERE %3$s AND %1$s IS NOT NULL
                   ORDER BY 2 DESC, c.chunk_id LIMIT %4$s) n',
            api.space_sim_sql(p, 1, '$2'), api.vector_joins_sql(p),
            api.filter_sql(p.filter, '($1).filter'), p.k)
        INTO v_ids, v_sims USING p, p.vectors;
    ELSE
        -- a multivector query reads ef_search tokens for each of its tokens: a chunk's
        -- MaxSim needs its best token for every query token, not only its nearest one
        SELECT n.ids[1 : p.k], n.sims[1 : p.k] INTO v_ids, v_sims
        FROM api.space_nearest(p.space_ids[1], p, 1,
                               CASE p.space_kinds[1] WHEN 'multivector'
                                    THEN greatest(p.k, p.ef_search) ELSE p.k END) n;
    END IF;
    SELECT coalesce(json_agg(json_build_object(
               'chunk_id', c.chunk_id, 'doc_id', c.doc_id, 'src', c.src, 'chunk', c.chunk,
               'model', c.model, 'similarity', u.sim, 'created_at', c.created_at)
             ORDER BY u.n), '[]'::json)
    INTO v_rows
    FROM unnest(v_ids, v_sims) WITH ORDINALITY AS u(id, sim, n)
    JOIN rag.chunks c ON c.id = u.id AND c.collection_id = p.collection_id
                     AND c.id = ANY (v_ids)  -- whatever the join, a look-up (entry.sql)
    WHERE p_min_similarity IS NULL OR u.sim >= p_min_similarity;
    RETURN json_build_object(
        'rows', v_rows,
        'meta', json_build_object(
            'strategy', CASE WHEN v_exact THEN 'scan' ELSE 'hnsw' END,
            'exact', v_exact,
            'search_time_ms', api.elapsed_ms(v_started)));
END
$$;
