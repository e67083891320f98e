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
-- Two strategies find the top-k (api.rag_topk_weighted picks one):
--   scan       score every chunk that passes the filters (exact, cost ~ filtered rows);
--   threshold  read each component in descending order from an index and stop as soon
--              as no unseen chunk can reach the k-th score (Fagin's threshold algorithm,
--              see api.topk_threshold).
--
-- The statements built here share one parameter list (EXECUTE ... USING):
--   $1 query vectors (vector[], one per space, in p_spaces order)
--   $2 request arguments (jsonb): now (epoch seconds), doc_ids, src_like, tags_any,
--      tags_all, created_after, created_before, min_score
--   $3 chunk ids (bigint[]) to score
--   $4 region bounds (float8[]): min created_at (epoch), min signal, min static score

CREATE OR REPLACE FUNCTION api.jsonb_text_array(p_value jsonb)
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT ARRAY(SELECT jsonb_array_elements_text(p_value)) $$;

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
    OUT joins text,        -- LEFT JOIN of each query space's vector table (v1, v2, ...)
    OUT sem text,          -- the semantic part, over those joins
    OUT rec text,          -- recency of c
    OUT stat text,         -- w_rec * rec + w_sig * sig: the part no vector is needed for
    OUT score text,        -- the whole score
    OUT filter text,       -- the filters on c, as a WHERE condition
    OUT sims text,         -- ARRAY of per-space similarities
    OUT tables text[],     -- vector table of each space
    OUT rec_function text,
    OUT rec_scale float8
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_space rag.spaces;
    v_recency jsonb := coalesce(p_options -> 'recency', '{}');
    v_sims text[] := '{}';
BEGIN
    IF coalesce(array_length(p_spaces, 1), 0) <> coalesce(array_length(p_vectors, 1), 0)
       OR coalesce(array_length(p_spaces, 1), 0) <> coalesce(array_length(p_space_weights, 1), 0)
    THEN
        PERFORM api.raise_bad_argument('spaces, vectors and space weights must have the same length');
    END IF;

    joins := '';
    sem := '0';
    tables := '{}';
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
        tables := tables || api.vector_table(v_space.id);
        joins := joins || format(' LEFT JOIN rag.%I v%s ON v%s.chunk_pk = c.id',
                                 api.vector_table(v_space.id), i, i);
        sem := sem || format(' + %s * coalesce(1 - (v%s.embedding <=> $1[%s]), 0)',
                             p_space_weights[i], i, i);
        v_sims := v_sims || format('1 - (v%s.embedding <=> $1[%s])', i, i);
    END LOOP;
    sims := 'ARRAY[' || array_to_string(v_sims, ', ') || ']::float8[]';

    rec_function := coalesce(v_recency ->> 'function', 'inverse');
    rec_scale := coalesce((v_recency ->> 'scale_days')::float8,
                          (v_recency ->> 'half_life_days')::float8, 1.0);
    IF rec_function NOT IN ('inverse', 'exponential', 'gaussian', 'linear') THEN
        PERFORM api.raise_bad_argument(format(
            'recency.function must be one of inverse, exponential, gaussian, linear (got "%s")',
            rec_function));
    END IF;
    IF NOT rec_scale > 0 OR rec_scale = 'Infinity' THEN
        PERFORM api.raise_bad_argument('recency scale must be a finite number > 0');
    END IF;
    rec := format('api.recency(api.days_old(c.created_at, ($2->>''now'')::float8), %L, %s)',
                  rec_function, rec_scale);
    stat := format('(%s * %s + %s * c.signal)',
                   p_w_rec, CASE WHEN p_w_rec = 0 THEN '0' ELSE rec END, p_w_sig);
    score := format('(%s * (%s) + %s)',
                    p_w_cos, CASE WHEN p_w_cos = 0 THEN '0' ELSE sem END, stat);

    filter := 'true';
    IF p_filters ? 'doc_ids' THEN
        filter := filter || ' AND c.doc_id = ANY(api.jsonb_text_array($2->''doc_ids''))';
    END IF;
    IF p_filters ? 'src_prefix' THEN
        filter := filter || ' AND c.src LIKE ($2->>''src_like'')';
    END IF;
    IF p_filters ? 'tags_any' THEN
        filter := filter || ' AND c.tags && api.jsonb_text_array($2->''tags_any'')';
    END IF;
    IF p_filters ? 'tags_all' THEN
        filter := filter || ' AND c.tags @> api.jsonb_text_array($2->''tags_all'')';
    END IF;
    IF p_filters ? 'created_after' THEN
        filter := filter || ' AND c.created_at >= ($2->>''created_after'')::timestamptz';
    END IF;
    IF p_filters ? 'created_before' THEN
        filter := filter || ' AND c.created_at < ($2->>''created_before'')::timestamptz';
    END IF;
END
$$;

-- The arguments ($2) of every statement of one request.
CREATE OR REPLACE FUNCTION api.search_args(p_filters jsonb, p_options jsonb)
RETURNS jsonb
LANGUAGE sql STABLE
AS $$
    SELECT coalesce(p_filters, '{}') || jsonb_build_object(
        'now', date_part('epoch', coalesce((p_options ->> 'as_of')::timestamptz, now())),
        'src_like', replace(replace(replace(p_filters ->> 'src_prefix', '\', '\\'),
                                    '%', '\%'), '_', '\_') || '%',
        'min_score', (p_options ->> 'min_score')::float8)
$$;

-- Score the chunks with the given ids: parallel arrays of id, chunk_id and score.
CREATE OR REPLACE FUNCTION api.score_ids(
    p_sql record, p_vectors vector[], p_args jsonb, p_ids bigint[],
    OUT ids bigint[], OUT chunk_ids text[], OUT scores float8[]
)
LANGUAGE plpgsql STABLE
AS $$
BEGIN
    EXECUTE format(
        'SELECT coalesce(array_agg(c.id), ''{}''), coalesce(array_agg(c.chunk_id), ''{}''),
                coalesce(array_agg(%s), ''{}'')
         FROM rag.chunks c %s WHERE c.id = ANY($3)',
        p_sql.score, p_sql.joins)
    INTO ids, chunk_ids, scores
    USING p_vectors, p_args, p_ids;
END
$$;

-- The k best of scored candidates (score DESC, chunk_id ASC), dropping any below min_score.
CREATE OR REPLACE FUNCTION api.best_k(
    p_ids bigint[], p_chunk_ids text[], p_scores float8[], p_k integer, p_min_score float8
) RETURNS bigint[]
LANGUAGE sql IMMUTABLE
AS $$
    SELECT coalesce(array_agg(id ORDER BY score DESC, chunk_id), '{}')
    FROM (SELECT id, chunk_id, score
          FROM unnest(p_ids, p_chunk_ids, p_scores) AS u(id, chunk_id, score)
          WHERE p_min_score IS NULL OR score >= p_min_score
          ORDER BY score DESC, chunk_id
          LIMIT p_k) best
$$;

-- Strategy "scan": score every chunk that passes the filters.
CREATE OR REPLACE FUNCTION api.topk_scan(
    p_sql record, p_vectors vector[], p_args jsonb, p_k integer, p_w_cos float8,
    OUT ids bigint[], OUT candidates bigint
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_where text := p_sql.filter;
BEGIN
    IF p_args ->> 'min_score' IS NOT NULL THEN
        v_where := v_where || format(' AND %s >= ($2->>''min_score'')::float8', p_sql.score);
    END IF;
    EXECUTE format(
        'SELECT coalesce(array_agg(id ORDER BY score DESC, chunk_id), ''{}'') FROM (
             SELECT c.id, c.chunk_id, %s AS score FROM rag.chunks c %s WHERE %s
             ORDER BY score DESC, c.chunk_id LIMIT %s) top',
        p_sql.score, CASE WHEN p_w_cos = 0 THEN '' ELSE p_sql.joins END, v_where, p_k)
    INTO ids
    USING p_vectors, p_args;
    EXECUTE format('SELECT count(*) FROM rag.chunks c WHERE %s', p_sql.filter)
    INTO candidates
    USING p_vectors, p_args;
END
$$;

-- Strategy "threshold": exact top-k without scoring every chunk.
--
-- Every component is bounded (sem <= 1 per space, rec and sig in [0, 1]), so:
--   1. each query space is read nearest-first from its HNSW index (iterative scan,
--      strict order, filters applied) to depth D; a chunk not read in space s has a
--      similarity of at most sim_bound_s = 1 - (distance of the D-th read);
--   2. the newest and the highest-signal chunks are read from their B-trees (seeds);
--   3. everything read is scored in full; theta = the k-th best score;
--   4. an unread chunk scores at most  w_cos * sum_s w_s * sim_bound_s + stat(c),  so
--      it can only reach theta when stat(c) >= sigma = theta - w_cos * sum_s w_s * sim_bound_s:
--      that "region" is read through the B-trees on created_at and signal (a date range
--      and a signal range, then the exact condition) and scored;
--   5. the k best of everything scored are the top-k.
-- When the region is larger than p_region_budget, the semantic depth grows (x4) to
-- tighten the bound, up to p_max_depth; past that the function reports failure and the
-- caller scans. The result is exact with respect to the HNSW index (which may, rarely,
-- miss a near neighbour); strategy "scan" is exact outright.
CREATE OR REPLACE FUNCTION api.topk_threshold(
    p_sql record, p_vectors vector[], p_space_weights float8[], p_args jsonb, p_k integer,
    p_w_cos float8, p_w_rec float8, p_w_sig float8,
    p_depth integer, p_max_depth integer, p_region_budget integer,
    OUT ids bigint[], OUT candidates bigint, OUT closed boolean, OUT depth integer
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_now float8 := (p_args ->> 'now')::float8;
    v_min_score float8 := (p_args ->> 'min_score')::float8;
    v_stream_from text;
    v_ids bigint[] := '{}';
    v_chunk_ids text[] := '{}';
    v_scores float8[] := '{}';
    v_new bigint[];
    v_read bigint[];
    v_far float8;
    v_sem_bound float8;
    v_theta float8;
    v_sigma float8;
    v_rec_min float8;
    v_days float8;
    v_bounds float8[];
    v_region bigint[];
    v_scored record;
BEGIN
    v_stream_from := CASE WHEN p_sql.filter = 'true' THEN ''
                          ELSE format(' JOIN rag.chunks c ON c.id = v.chunk_pk WHERE %s',
                                      p_sql.filter) END;
    -- Seeds: the k newest and the k highest-signal chunks that pass the filters.
    IF p_w_rec > 0 THEN
        EXECUTE format('SELECT array_agg(id) FROM (SELECT c.id FROM rag.chunks c WHERE %s
                        ORDER BY c.created_at DESC LIMIT %s) s', p_sql.filter, p_k)
        INTO v_read USING p_vectors, p_args;
        v_new := coalesce(v_read, '{}');
    END IF;
    IF p_w_sig > 0 THEN
        EXECUTE format('SELECT array_agg(id) FROM (SELECT c.id FROM rag.chunks c WHERE %s
                        ORDER BY c.signal DESC LIMIT %s) s', p_sql.filter, p_k)
        INTO v_read USING p_vectors, p_args;
        v_new := coalesce(v_new, '{}') || coalesce(v_read, '{}');
    END IF;
    v_new := coalesce(v_new, '{}');
    depth := p_depth;
    LOOP
        -- 1. Semantic streams, nearest first, to the current depth.
        v_sem_bound := 0;
        IF p_w_cos > 0 THEN
            FOR i IN 1 .. coalesce(array_length(p_sql.tables, 1), 0) LOOP
                CONTINUE WHEN p_space_weights[i] = 0;
                EXECUTE format(
                    'SELECT array_agg(chunk_pk), max(d) FROM (
                         SELECT v.chunk_pk, v.embedding <=> $1[%s] AS d FROM rag.%I v %s
                         ORDER BY v.embedding <=> $1[%s] LIMIT %s) s',
                    i, p_sql.tables[i], v_stream_from, i, depth)
                INTO v_read, v_far USING p_vectors, p_args;
                v_new := v_new || coalesce(v_read, '{}');
                -- An unread chunk is at least as far as the farthest read; one with no
                -- vector in this space counts as similarity 0.
                v_sem_bound := v_sem_bound + p_space_weights[i]
                    * CASE WHEN v_far IS NULL THEN 1 ELSE greatest(0, 1 - v_far) + 1e-9 END;
            END LOOP;
        END IF;

        -- 3. Score what is new; theta is the k-th best score so far.
        v_new := ARRAY(SELECT DISTINCT unnest(v_new) EXCEPT SELECT unnest(v_ids));
        v_scored := api.score_ids(p_sql, p_vectors, p_args, v_new);
        v_ids := v_ids || v_scored.ids;
        v_chunk_ids := v_chunk_ids || v_scored.chunk_ids;
        v_scores := v_scores || v_scored.scores;
        v_new := '{}';
        SELECT s INTO v_theta FROM unnest(v_scores) s
        WHERE v_min_score IS NULL OR s >= v_min_score
        ORDER BY s DESC OFFSET p_k - 1 LIMIT 1;
        v_theta := coalesce(v_theta, v_min_score, '-Infinity');

        -- 4. The region: chunks whose static part alone could still reach theta.
        v_sigma := v_theta - p_w_cos * v_sem_bound - 1e-9;
        v_bounds := ARRAY['-Infinity', '-Infinity', v_sigma]::float8[];
        IF p_w_rec > 0 THEN
            v_rec_min := (v_sigma - p_w_sig) / p_w_rec;
            v_days := api.recency_max_days(v_rec_min, p_sql.rec_function, p_sql.rec_scale);
            IF v_days IS NOT NULL THEN
                v_bounds[1] := v_now - v_days * 86400 - 1;
            END IF;
        END IF;
        IF p_w_sig > 0 THEN
            v_bounds[2] := (v_sigma - p_w_rec) / p_w_sig;
        END IF;
        IF v_sigma > p_w_rec + p_w_sig OR v_bounds[1] > v_now THEN
            v_region := '{}';  -- no chunk's static part is that high
        ELSE
            EXECUTE format(
                'SELECT coalesce(array_agg(id), ''{}'') FROM (SELECT c.id FROM rag.chunks c
                 WHERE %s AND c.created_at >= to_timestamp($4[1]) AND c.signal >= $4[2]
                   AND %s >= $4[3] LIMIT %s) r',
                p_sql.filter, p_sql.stat, p_region_budget + 1)
            INTO v_region USING p_vectors, p_args, NULL::bigint[], v_bounds;
        END IF;

        IF array_length(v_region, 1) > p_region_budget THEN
            -- Too many chunks could still qualify: read deeper, or give up.
            IF p_w_cos = 0 OR depth >= p_max_depth THEN
                ids := NULL;
                candidates := array_length(v_ids, 1);
                closed := false;
                RETURN;
            END IF;
            depth := least(depth * 4, p_max_depth);
            CONTINUE;
        END IF;

        -- 5. Score the region; the k best of everything scored are the answer.
        v_new := ARRAY(SELECT unnest(v_region) EXCEPT SELECT unnest(v_ids));
        v_scored := api.score_ids(p_sql, p_vectors, p_args, v_new);
        v_ids := v_ids || v_scored.ids;
        v_chunk_ids := v_chunk_ids || v_scored.chunk_ids;
        v_scores := v_scores || v_scored.scores;
        ids := api.best_k(v_ids, v_chunk_ids, v_scores, p_k, v_min_score);
        candidates := coalesce(array_length(v_ids, 1), 0);
        closed := true;
        RETURN;
    END LOOP;
END
$$;

-- The response rows for the chosen chunk ids, best first, with every component.
CREATE OR REPLACE FUNCTION api.search_rows(
    p_sql record,
    p_vectors vector[],
    p_args jsonb,
    p_ids bigint[]
) RETURNS jsonb
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_rows jsonb;
    v_dist text := 'NULL::float8';
    v_l2 text := 'NULL::float8';
BEGIN
    IF array_length(p_sql.tables, 1) > 0 THEN
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
                   %s AS cos_dist, %s AS l2_dist,
                   api.days_old(c.created_at, ($2->>'now')::float8) AS days_old
            FROM rag.chunks c %s
            WHERE c.id = ANY($3)
        ) t $q$,
        p_sql.score, p_sql.sem, p_sql.rec, p_sql.sims, v_dist, v_l2, p_sql.joins)
    INTO v_rows
    USING p_vectors, p_args, p_ids;
    RETURN v_rows;
END
$$;

-- Should this request be answered by scanning? True when the filters leave few chunks
-- (the planner's estimate), or the whole collection is small.
CREATE OR REPLACE FUNCTION api.prefer_scan(p_sql record, p_args jsonb, p_scan_rows integer)
RETURNS boolean
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_plan jsonb;
BEGIN
    IF (SELECT reltuples FROM pg_class WHERE oid = 'rag.chunks'::regclass) <= p_scan_rows THEN
        RETURN true;
    END IF;
    IF p_sql.filter = 'true' THEN
        RETURN false;
    END IF;
    EXECUTE format('EXPLAIN (FORMAT JSON) SELECT 1 FROM rag.chunks c WHERE %s', p_sql.filter)
    INTO v_plan USING NULL::vector[], p_args;
    RETURN (v_plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8 <= p_scan_rows;
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
SET hnsw.iterative_scan = 'strict_order'
SET hnsw.ef_search = 40
AS $$
DECLARE
    v_started timestamptz := clock_timestamp();
    v_options jsonb := coalesce(p_options, '{}');
    v_strategy text := coalesce(v_options ->> 'strategy', 'auto');
    v_ef_search integer := coalesce((v_options ->> 'ef_search')::integer, 40);
    v_sql record;
    v_args jsonb;
    v_found record;
    v_ids bigint[];
    v_candidates bigint;
    v_depth integer;
BEGIN
    IF p_k IS NULL OR p_k < 1 THEN
        PERFORM api.raise_bad_argument('k must be >= 1');
    END IF;
    IF v_strategy NOT IN ('auto', 'scan', 'threshold') THEN
        PERFORM api.raise_bad_argument('strategy must be auto, scan or threshold');
    END IF;
    v_sql := api.search_sql(p_vectors, p_spaces, p_space_weights, p_w_cos, p_w_rec, p_w_sig,
                            coalesce(p_filters, '{}'), v_options);
    v_args := api.search_args(coalesce(p_filters, '{}'), v_options);
    PERFORM set_config('hnsw.ef_search', v_ef_search::text, true);

    IF (v_options ->> 'exact')::boolean THEN
        v_strategy := 'scan';
    ELSIF v_strategy = 'auto' THEN
        v_strategy := CASE WHEN api.prefer_scan(v_sql, v_args,
                                coalesce((v_options ->> 'scan_rows')::integer, 2000))
                           THEN 'scan' ELSE 'threshold' END;
    END IF;

    IF v_strategy = 'threshold' THEN
        v_found := api.topk_threshold(
            v_sql, p_vectors, p_space_weights, v_args, p_k, p_w_cos, p_w_rec, p_w_sig,
            greatest(2 * p_k, v_ef_search),
            coalesce((v_options ->> 'max_depth')::integer, 2560),
            coalesce((v_options ->> 'region_budget')::integer, 4000));
        v_ids := v_found.ids;
        v_candidates := v_found.candidates;
        v_depth := v_found.depth;
        IF NOT v_found.closed THEN
            v_strategy := 'scan';  -- the bound did not close within the budget
        END IF;
    END IF;
    IF v_strategy = 'scan' THEN
        v_found := api.topk_scan(v_sql, p_vectors, v_args, p_k, p_w_cos);
        v_ids := v_found.ids;
        v_candidates := coalesce(v_candidates, 0) + v_found.candidates;
    END IF;

    RETURN jsonb_build_object(
        'rows', api.search_rows(v_sql, p_vectors, v_args, v_ids),
        'meta', jsonb_build_object(
            'strategy', v_strategy,
            'exact', true,
            'fell_back', v_depth IS NOT NULL AND v_strategy = 'scan',
            'depth', v_depth,
            'candidates_scanned', v_candidates,
            'search_time_ms',
                round((extract(epoch FROM clock_timestamp() - v_started) * 1000)::numeric, 3)));
END
$$;
