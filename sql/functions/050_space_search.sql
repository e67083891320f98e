-- Single-space search: the plain nearest-neighbour query of one embedding space (the
-- HNSW index at the request's ef_search, or an exact scan), with optional filters.

CREATE OR REPLACE FUNCTION api.space_topk(
    p_space text,
    p_vector vector,
    p_k integer,
    p_min_similarity float8 DEFAULT NULL,
    p_filters jsonb DEFAULT '{}',
    p_options jsonb DEFAULT '{}'
) RETURNS jsonb
LANGUAGE plpgsql
SET hnsw.iterative_scan = 'strict_order'
SET hnsw.ef_search = 40
AS $$
DECLARE
    v_started timestamptz := clock_timestamp();
    v_space rag.spaces;
    v_sql record;
    v_order text;
    v_rows jsonb;
BEGIN
    SELECT * INTO v_space FROM rag.spaces WHERE name = p_space;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'RG400', MESSAGE = 'invalid_space',
            DETAIL = jsonb_build_object(
                'message', format('unknown embedding space "%s"', p_space),
                'space', p_space,
                'valid_spaces', (SELECT jsonb_agg(name ORDER BY id) FROM rag.spaces))::text;
    END IF;
    IF vector_dims(p_vector) <> v_space.dims THEN
        RAISE EXCEPTION USING ERRCODE = 'RG400', MESSAGE = 'query_dimension_mismatch',
            DETAIL = jsonb_build_object(
                'message', format('query_embedding has %s dimensions; space "%s" has %s',
                                  vector_dims(p_vector), p_space, v_space.dims),
                'space', p_space, 'expected', v_space.dims,
                'actual', vector_dims(p_vector))::text;
    END IF;
    PERFORM set_config('hnsw.ef_search',
                       coalesce(p_options ->> 'ef_search', '40'), true);
    -- Only the filters are needed from the search fragments (no weights, no recency).
    v_sql := api.search_sql(ARRAY[p_vector], ARRAY[p_space], ARRAY[1.0]::float8[], 1, 0, 0,
                            coalesce(p_filters, '{}'), '{}');
    -- The index orders by its own (half-precision) distance; the float32 distance
    -- matches no index, so ordering by it scans exactly.
    v_order := CASE WHEN (p_options ->> 'exact')::boolean THEN 'v.embedding <=> $1[1]'
                    ELSE api.ann_order_sql('v', '$1[1]', v_space.dims) END;
    EXECUTE format($q$
        SELECT coalesce(jsonb_agg(jsonb_build_object(
                   'chunk_id', c.chunk_id, 'doc_id', c.doc_id, 'src', c.src,
                   'chunk', c.chunk, 'model', c.model, 'similarity', 1 - n.d,
                   'created_at', c.created_at)
                 ORDER BY n.d, c.chunk_id), '[]')
        FROM (SELECT v.chunk_pk, v.embedding <=> $1[1] AS d
              FROM rag.%I v %s ORDER BY %s LIMIT %s) n
        JOIN rag.chunks c ON c.id = n.chunk_pk
        WHERE ($2->>'min_similarity') IS NULL
           OR 1 - n.d >= ($2->>'min_similarity')::float8$q$,
        api.vector_table(v_space.id),
        CASE WHEN v_sql.filter = 'true' THEN ''
             ELSE 'JOIN rag.chunks c ON c.id = v.chunk_pk WHERE ' || v_sql.filter END,
        v_order, p_k)
    INTO v_rows
    USING ARRAY[p_vector], api.search_args(coalesce(p_filters, '{}'), '{}')
                           || jsonb_build_object('min_similarity', p_min_similarity);
    RETURN jsonb_build_object(
        'rows', v_rows,
        'meta', jsonb_build_object(
            'strategy', CASE WHEN (p_options ->> 'exact')::boolean THEN 'scan' ELSE 'hnsw' END,
            'search_time_ms',
                round((extract(epoch FROM clock_timestamp() - v_started) * 1000)::numeric, 3)));
END
$$;
