-- Weighted top-k search: the one place the ranking rule lives.
--
--   score = w_cos * sem + w_rec * rec + w_sig * sig
--   sem   = sum over query spaces s of space_weight_s * (1 - cos_dist_s)
--           (a chunk with no vector in a space contributes 0 for that space)
--   rec   = api.recency(days_old, function, scale)
--   sig   = rag.chunks.signal
--
-- Ties are broken by chunk_id. The caller passes weights already normalised.
--
-- The statements built here share one parameter list (EXECUTE ... USING):
--   $1 query vectors (vector[], one per space, in p_spaces order)
--   $2 now, epoch seconds          $3 doc_ids            $4 src LIKE pattern
--   $5 tags_any                    $6 tags_all           $7 created_after (inclusive)
--   $8 created_before (exclusive)  $9 min_score          $10 chunk ids (final stage)

-- SQL fragments for one request: vector-table joins, the score and its parts, filters.
CREATE OR REPLACE FUNCTION api.search_sql(
    p_vectors vector[],
    p_spaces text[],
    p_space_weights float8[],
    p_w_cos float8,
    p_w_rec float8,
    p_w_sig float8,
    p_filters jsonb,
    p_options jsonb,
    OUT joins text,
    OUT sem text,
    OUT rec text,
    OUT score text,
    OUT filter text,
    OUT sims text,
    OUT primary_alias text
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_space rag.spaces;
    v_recency jsonb := coalesce(p_options -> 'recency', '{}');
    v_function text := coalesce(v_recency ->> 'function', 'inverse');
    v_scale float8;
    v_sims text[] := '{}';
BEGIN
    IF coalesce(array_length(p_spaces, 1), 0) <> coalesce(array_length(p_vectors, 1), 0)
       OR coalesce(array_length(p_spaces, 1), 0) <> coalesce(array_length(p_space_weights, 1), 0)
    THEN
        PERFORM api.raise_bad_argument('spaces, vectors and space weights must have the same length');
    END IF;

    joins := '';
    sem := '0';
    FOR i IN 1 .. coalesce(array_length(p_spaces, 1), 0) LOOP
        SELECT * INTO v_space FROM rag.spaces WHERE name = p_spaces[i];
        IF NOT FOUND THEN
            RAISE EXCEPTION USING ERRCODE = 'RG400',
                MESSAGE = format('unknown embedding space "%s"', p_spaces[i]),
                DETAIL = jsonb_build_object('space', p_spaces[i])::text;
        END IF;
        IF vector_dims(p_vectors[i]) <> v_space.dims THEN
            RAISE EXCEPTION USING ERRCODE = 'RG400',
                MESSAGE = format('embedding for space "%s" has %s dimensions, expected %s',
                                 v_space.name, vector_dims(p_vectors[i]), v_space.dims),
                DETAIL = jsonb_build_object('space', v_space.name, 'expected', v_space.dims,
                                            'actual', vector_dims(p_vectors[i]))::text;
        END IF;
        joins := joins || format(' LEFT JOIN rag.%I v%s ON v%s.chunk_pk = c.id',
                                 api.vector_table(v_space.id), i, i);
        sem := sem || format(' + %s * coalesce(1 - (v%s.embedding <=> $1[%s]), 0)',
                             p_space_weights[i], i, i);
        v_sims := v_sims || format('1 - (v%s.embedding <=> $1[%s])', i, i);
    END LOOP;
    sims := 'ARRAY[' || array_to_string(v_sims, ', ') || ']::float8[]';
    primary_alias := CASE WHEN array_length(v_sims, 1) > 0 THEN 'v1' END;

    v_scale := coalesce(
        (v_recency ->> 'scale_days')::float8,
        (v_recency ->> 'half_life_days')::float8,
        1.0);
    IF v_function NOT IN ('inverse', 'exponential', 'gaussian', 'linear') THEN
        PERFORM api.raise_bad_argument(
            format('recency.function must be one of inverse, exponential, gaussian, linear (got "%s")',
                   v_function));
    END IF;
    IF NOT v_scale > 0 OR v_scale = 'Infinity' THEN
        PERFORM api.raise_bad_argument('recency scale must be a finite number > 0');
    END IF;
    rec := format('api.recency(api.days_old(c.created_at, $2), %L, %s)', v_function, v_scale);

    score := format('(%s * (%s) + %s * %s + %s * c.signal)',
                    p_w_cos, CASE WHEN p_w_cos = 0 THEN '0' ELSE sem END,
                    p_w_rec, CASE WHEN p_w_rec = 0 THEN '0' ELSE rec END,
                    p_w_sig);

    filter := 'true';
    IF p_filters ? 'doc_ids' THEN filter := filter || ' AND c.doc_id = ANY($3)'; END IF;
    IF p_filters ? 'src_prefix' THEN filter := filter || ' AND c.src LIKE $4'; END IF;
    IF p_filters ? 'tags_any' THEN filter := filter || ' AND c.tags && $5'; END IF;
    IF p_filters ? 'tags_all' THEN filter := filter || ' AND c.tags @> $6'; END IF;
    IF p_filters ? 'created_after' THEN filter := filter || ' AND c.created_at >= $7'; END IF;
    IF p_filters ? 'created_before' THEN filter := filter || ' AND c.created_at < $8'; END IF;
END
$$;

-- The response rows for the chosen chunk ids, best first, with every component.
CREATE OR REPLACE FUNCTION api.search_rows(
    p_sql record,
    p_vectors vector[],
    p_now float8,
    p_ids bigint[]
) RETURNS jsonb
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_rows jsonb;
    v_dist text := 'NULL::float8';
    v_l2 text := 'NULL::float8';
BEGIN
    IF p_sql.primary_alias IS NOT NULL THEN
        v_dist := 'v1.embedding <=> $1[1]';
        v_l2 := 'v1.embedding <-> $1[1]';
    END IF;
    EXECUTE format($q$
        SELECT coalesce(jsonb_agg(jsonb_build_object(
                   'chunk_id', t.chunk_id, 'doc_id', t.doc_id, 'src', t.src,
                   'chunk', t.chunk, 'model', t.model, 'score', t.score,
                   'cos_dist', t.cos_dist, 'l2_dist', t.l2_dist, 'scale', t.scale,
                   'days_old', t.days_old, 'created_at', t.created_at,
                   'sem', t.sem, 'rec', t.rec, 'sig', t.sig, 'sims', t.sims,
                   'tags', t.tags, 'metadata', t.metadata)
                 ORDER BY t.score DESC, t.chunk_id), '[]'::jsonb)
        FROM (
            SELECT c.chunk_id, c.doc_id, c.src, c.chunk, c.model, c.scale, c.created_at,
                   c.tags, c.metadata, c.signal::float8 AS sig,
                   %s AS score, %s AS sem, %s AS rec, %s AS sims,
                   %s AS cos_dist, %s AS l2_dist, api.days_old(c.created_at, $2) AS days_old
            FROM rag.chunks c %s
            WHERE c.id = ANY($10)
        ) t $q$,
        p_sql.score, p_sql.sem, p_sql.rec, p_sql.sims, v_dist, v_l2, p_sql.joins)
    INTO v_rows
    USING p_vectors, p_now, NULL::text[], NULL::text, NULL::text[], NULL::text[],
          NULL::timestamptz, NULL::timestamptz, NULL::float8, p_ids;
    RETURN v_rows;
END
$$;

CREATE OR REPLACE FUNCTION api.rag_topk_weighted(
    p_vectors vector[],
    p_spaces text[],
    p_space_weights float8[],
    p_k integer,
    p_w_cos float8,
    p_w_rec float8,
    p_w_sig float8,
    p_filters jsonb DEFAULT '{}',
    p_options jsonb DEFAULT '{}'
) RETURNS jsonb
LANGUAGE plpgsql
AS $$
DECLARE
    v_started timestamptz := clock_timestamp();
    v_sql record;
    v_now float8 := date_part('epoch', coalesce((p_options ->> 'as_of')::timestamptz, now()));
    v_min_score float8 := (p_options ->> 'min_score')::float8;
    v_doc_ids text[] := ARRAY(SELECT jsonb_array_elements_text(p_filters -> 'doc_ids'));
    v_src_like text := replace(replace(replace(p_filters ->> 'src_prefix', '\', '\\'),
                                       '%', '\%'), '_', '\_') || '%';
    v_tags_any text[] := ARRAY(SELECT jsonb_array_elements_text(p_filters -> 'tags_any'));
    v_tags_all text[] := ARRAY(SELECT jsonb_array_elements_text(p_filters -> 'tags_all'));
    v_after timestamptz := (p_filters ->> 'created_after')::timestamptz;
    v_before timestamptz := (p_filters ->> 'created_before')::timestamptz;
    v_ids bigint[];
    v_scanned bigint;
    v_where text;
BEGIN
    IF p_k IS NULL OR p_k < 1 THEN
        PERFORM api.raise_bad_argument('k must be >= 1');
    END IF;
    v_sql := api.search_sql(p_vectors, p_spaces, p_space_weights, p_w_cos, p_w_rec, p_w_sig,
                            coalesce(p_filters, '{}'), coalesce(p_options, '{}'));
    v_where := v_sql.filter;
    IF v_min_score IS NOT NULL THEN
        v_where := v_where || format(' AND %s >= $9', v_sql.score);
    END IF;

    EXECUTE format(
        'SELECT array_agg(id ORDER BY score DESC, chunk_id) FROM (
             SELECT c.id, c.chunk_id, %s AS score FROM rag.chunks c %s WHERE %s
             ORDER BY score DESC, c.chunk_id LIMIT %s) top',
        v_sql.score, CASE WHEN p_w_cos = 0 THEN '' ELSE v_sql.joins END, v_where, p_k)
    INTO v_ids
    USING p_vectors, v_now, v_doc_ids, v_src_like, v_tags_any, v_tags_all, v_after, v_before,
          v_min_score;

    EXECUTE format('SELECT count(*) FROM rag.chunks c WHERE %s', v_sql.filter)
    INTO v_scanned
    USING p_vectors, v_now, v_doc_ids, v_src_like, v_tags_any, v_tags_all, v_after, v_before;

    RETURN jsonb_build_object(
        'rows', api.search_rows(v_sql, p_vectors, v_now, coalesce(v_ids, '{}')),
        'meta', jsonb_build_object(
            'strategy', 'scan',
            'exact', true,
            'candidates_scanned', v_scanned,
            'search_time_ms',
                round((extract(epoch FROM clock_timestamp() - v_started) * 1000)::numeric, 3)));
END
$$;
