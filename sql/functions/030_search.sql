-- Weighted top-k search: the one place the ranking rule lives.
--
--   score = w_cos * sem + w_rec * rec + w_sig * sig
--   sem   = sum over query spaces s of space_weight_s * (1 - cos_dist_s)
--           (a chunk with no vector in a space contributes 0 for that space)
--   rec   = recency of days_old (api.recency_sql)
--   sig   = rag.chunks.signal
--
-- Ties are broken by chunk_id. The caller passes weights already normalised.
--
-- Two strategies find the top-k (api.rag_topk_weighted picks one):
--   scan       score every chunk that passes the filters (exact; cost ~ filtered rows);
--   threshold  read each component in descending order from an index and stop as soon
--              as no unread chunk can reach the k-th score (Fagin's threshold
--              algorithm; see api.topk_threshold).
--
-- The statements built here share one parameter list (EXECUTE ... USING):
--   $1 query vectors (vector[], one per space, in p_spaces order)
--   $2 request arguments (jsonb): doc_ids, src_like, tags_any, tags_all, created_after,
--      created_before, min_score
--   $3 chunk ids (bigint[])      $4 their chunk_ids (text[])   $5 their scores (float8[])
--   $6 region boxes (box[])      $7 sigma (float8)

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
    p_now float8,
    OUT joins text,        -- LEFT JOIN of each query space's vector table (v1, v2, ...)
    OUT sem text,          -- the semantic part, over those joins
    OUT days text,         -- days_old of c
    OUT rec text,          -- recency of c
    OUT stat text,         -- w_rec * rec + w_sig * sig: the part no vector is needed for
    OUT score text,        -- the whole score
    OUT filter text,       -- the filters on c, as a WHERE condition
    OUT sims text,         -- ARRAY of per-space similarities
    OUT tables text[],     -- vector table of each space
    OUT dims integer[],    -- and its dimensions
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
    dims := '{}';
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
        dims := dims || v_space.dims;
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
    days := api.days_old_sql(p_now);
    rec := api.recency_sql(rec_function, rec_scale, days);
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
LANGUAGE sql IMMUTABLE
AS $$
    SELECT coalesce(p_filters, '{}') || jsonb_build_object(
        'src_like', replace(replace(replace(p_filters ->> 'src_prefix', '\', '\\'),
                                    '%', '\%'), '_', '\_') || '%',
        'min_score', (p_options ->> 'min_score')::float8)
$$;

-- A query returning the response rows (jsonb array, best first, every component) for
-- the chunk ids of p_best (a relation with a column "id", aliased b).
CREATE OR REPLACE FUNCTION api.rows_sql(p_sql record, p_best text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    v_dist text := 'NULL::float8';
    v_l2 text := 'NULL::float8';
BEGIN
    IF array_length(p_sql.tables, 1) > 0 THEN
        v_dist := 'v1.embedding <=> $1[1]';
        v_l2 := 'v1.embedding <-> $1[1]';
    END IF;
    RETURN format($q$
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
                   c.tags, c.metadata, c.signal::float8 AS sig, %s AS score, %s AS sem,
                   %s AS rec, %s AS sims, %s AS cos_dist, %s AS l2_dist, %s AS days_old
            FROM %s JOIN rag.chunks c ON c.id = b.id %s
        ) t$q$,
        p_sql.score, p_sql.sem, p_sql.rec, p_sql.sims, v_dist, v_l2, p_sql.days, p_best,
        p_sql.joins);
END
$$;

-- Strategy "scan": score every chunk that passes the filters.
CREATE OR REPLACE FUNCTION api.topk_scan(
    p_sql record, p_vectors vector[], p_args jsonb, p_k integer, p_w_cos float8,
    OUT rows jsonb, OUT candidates bigint
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_where text := p_sql.filter;
    v_ids bigint[];
BEGIN
    IF p_args ->> 'min_score' IS NOT NULL THEN
        v_where := v_where || format(' AND %s >= ($2->>''min_score'')::float8', p_sql.score);
    END IF;
    EXECUTE format(
        'SELECT coalesce(array_agg(id ORDER BY score DESC, chunk_id), ''{}'') FROM (
             SELECT c.id, c.chunk_id, %s AS score FROM rag.chunks c %s WHERE %s
             ORDER BY score DESC, c.chunk_id LIMIT %s) top',
        p_sql.score, CASE WHEN p_w_cos = 0 THEN '' ELSE p_sql.joins END, v_where, p_k)
    INTO v_ids
    USING p_vectors, p_args;
    EXECUTE format('SELECT count(*) FROM rag.chunks c WHERE %s', p_sql.filter)
    INTO candidates
    USING p_vectors, p_args;
    EXECUTE api.rows_sql(p_sql, 'unnest($3) AS b(id)') INTO rows USING p_vectors, p_args, v_ids;
END
$$;

-- Strategy "threshold": exact top-k without scoring every chunk.
--
-- Every component is bounded (sem <= 1 per space, rec and sig in [0, 1]), so:
--   1. each query space is read nearest-first from its HNSW index (iterative scan,
--      strict order, filters applied) to depth D; a chunk not read in space s has a
--      similarity of at most sim_bound_s = 1 - (distance of the D-th read) (plus the
--      index's half-precision rounding, api.ann_distance_error);
--   2. the k newest and the k highest-signal chunks are read from their B-trees (seeds);
--   3. everything read is scored in full; theta = the k-th best score;
--   4. a chunk not read scores at most  w_cos * sum_s w_s * sim_bound_s + stat(c), so it
--      can only reach theta when stat(c) = w_rec * rec + w_sig * sig >= sigma, with
--      sigma = theta - w_cos * sum_s w_s * sim_bound_s. That "region" is a staircase in
--      the (created_at, signal) plane: the GiST index on that plane returns it as a
--      union of boxes (api.region_boxes), and each candidate is checked exactly;
--   5. the region is scored; the k best of everything scored are the top-k.
-- When the region holds more than a budget (8 x D chunks, at least p_region_budget),
-- scoring it would cost more than reading deeper: the semantic depth grows (x4), which
-- tightens the bound, up to p_max_depth. At that depth (or with no semantic part) a
-- region of up to p_region_limit chunks is scored; a larger one means the bound did not
-- close, and the caller scans. The answer is exact with respect to the HNSW
-- index (which may, rarely, miss a near neighbour); strategy "scan" is exact outright.

-- Steps 1-3 at depth p_depth, as one statement: the ids, chunk_ids and scores of every
-- chunk read, and per query space the farthest distance read (NULL: nothing read).
CREATE OR REPLACE FUNCTION api.read_sql(
    p_sql record, p_space_weights float8[], p_k integer,
    p_w_cos float8, p_w_rec float8, p_w_sig float8, p_depth integer
) RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    v_from text := CASE WHEN p_sql.filter = 'true' THEN ''
                        ELSE format(' JOIN rag.chunks c ON c.id = v.chunk_pk WHERE %s',
                                    p_sql.filter) END;
    v_ctes text[] := ARRAY['nothing AS (SELECT NULL::bigint AS id WHERE false)'];
    v_sources text[] := ARRAY['SELECT id FROM nothing'];
    v_far text[] := '{}';
BEGIN
    IF p_w_rec > 0 THEN
        v_ctes := v_ctes || format(
            'seed_rec AS (SELECT c.id FROM rag.chunks c WHERE %s
                          ORDER BY c.created_at DESC LIMIT %s)', p_sql.filter, p_k);
        v_sources := v_sources || 'SELECT id FROM seed_rec'::text;
    END IF;
    IF p_w_sig > 0 THEN
        v_ctes := v_ctes || format(
            'seed_sig AS (SELECT c.id FROM rag.chunks c WHERE %s
                          ORDER BY c.signal DESC LIMIT %s)', p_sql.filter, p_k);
        v_sources := v_sources || 'SELECT id FROM seed_sig'::text;
    END IF;
    FOR i IN 1 .. coalesce(array_length(p_sql.tables, 1), 0) LOOP
        IF p_w_cos > 0 AND p_space_weights[i] > 0 THEN
            v_ctes := v_ctes || format(
                's%s AS (SELECT v.chunk_pk AS id, %s AS d
                         FROM rag.%I v %s ORDER BY 2 LIMIT %s)',
                i, api.ann_order_sql('v', format('$1[%s]', i), p_sql.dims[i]),
                p_sql.tables[i], v_from, p_depth);
            v_sources := v_sources || format('SELECT id FROM s%s', i);
            v_far := v_far || format('(SELECT max(d) FROM s%s)', i);
        ELSE
            v_far := v_far || 'NULL::float8'::text;
        END IF;
    END LOOP;
    RETURN format(
        $q$WITH %s,
        scored AS (SELECT c.id, c.chunk_id, %s AS score
                   FROM (SELECT DISTINCT id FROM (%s) r) r JOIN rag.chunks c ON c.id = r.id %s)
        SELECT coalesce(array_agg(id), '{}'), coalesce(array_agg(chunk_id), '{}'),
               coalesce(array_agg(score), '{}'), ARRAY[%s]::float8[]
        FROM scored$q$,
        array_to_string(v_ctes, ', '), p_sql.score, array_to_string(v_sources, ' UNION ALL '),
        p_sql.joins, coalesce(array_to_string(v_far, ', '), ''));
END
$$;

-- The region {w_rec * rec + w_sig * sig >= sigma} as a union of boxes in the
-- (epoch days, signal) plane that covers it. With s the signal and a the age, the
-- region is s >= g(a) = (sigma - w_rec * rec(a)) / w_sig, g increasing with age; for
-- signal levels 0 = l_0 < l_1 < ... < l_m = 1, box j holds s in [l_j, l_{j+1}] and the
-- ages a with g(a) <= l_{j+1}. Empty array: no chunk can be in the region.
CREATE OR REPLACE FUNCTION api.region_boxes(
    p_sigma float8, p_w_rec float8, p_w_sig float8,
    p_rec_function text, p_rec_scale float8, p_now_days float8
) RETURNS box[]
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    v_levels float8[] := ARRAY[-1, 0.5, 0.75, 0.875, 0.9375, 0.96875, 0.984375, 0.9921875, 2];
    v_boxes box[] := '{}';
    v_age float8;
    v_far constant float8 := 1e9;  -- days: beyond any timestamp
BEGIN
    IF p_sigma > p_w_rec + p_w_sig THEN
        RETURN v_boxes;
    END IF;
    IF p_w_rec = 0 AND p_w_sig = 0 THEN  -- no static part, and sigma <= 0: every chunk
        RETURN ARRAY[box(point(-v_far, -1), point(v_far, 2))];
    END IF;
    IF p_w_rec = 0 THEN  -- signal alone: one band of signal, every age
        RETURN ARRAY[box(point(-v_far, p_sigma / p_w_sig), point(v_far, 2))];
    END IF;
    IF p_w_sig = 0 THEN  -- recency alone: one band of age, every signal
        v_age := api.recency_max_days(p_sigma / p_w_rec, p_rec_function, p_rec_scale);
        RETURN ARRAY[box(point(coalesce(p_now_days - v_age, -v_far), -1), point(v_far, 2))];
    END IF;
    FOR j IN 1 .. array_length(v_levels, 1) - 1 LOOP
        -- the oldest age whose signal requirement is at most the band's top level
        v_age := api.recency_max_days(
            (p_sigma - p_w_sig * least(v_levels[j + 1], 1)) / p_w_rec,
            p_rec_function, p_rec_scale);
        CONTINUE WHEN v_age < 0;  -- even age 0 needs more than this band's signal
        v_boxes := v_boxes || box(point(coalesce(p_now_days - v_age, -v_far), v_levels[j]),
                                  point(v_far, v_levels[j + 1]));
    END LOOP;
    RETURN v_boxes;
END
$$;

-- Steps 4-5 as one statement: the region (up to p_budget + 1 chunks, in p_boxes boxes)
-- is scored and merged with what was read ($3-$5). Returns the region size, the
-- response rows and how many chunks were scored in all.
CREATE OR REPLACE FUNCTION api.finish_sql(p_sql record, p_k integer, p_boxes integer,
                                          p_budget integer)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    v_boxes text[] := ARRAY['SELECT NULL::bigint AS id WHERE false'];
BEGIN
    -- One index scan per box, each stopping at the budget, and the union stopping there
    -- too: a region too big to score costs only budget + 1 index entries to detect.
    FOR j IN 1 .. p_boxes LOOP
        v_boxes := v_boxes || format(
            '(SELECT c.id FROM rag.chunks c
              WHERE point(rag.epoch_days(c.created_at), c.signal) <@ $6[%s] AND %s AND %s >= $7
              LIMIT %s)', j, p_sql.filter, p_sql.stat, p_budget + 1);
    END LOOP;
    RETURN format(
        $q$WITH region AS (SELECT id FROM (%s) boxes LIMIT %s),
        region_size AS (SELECT count(*) AS n FROM region),
        fresh AS (SELECT id FROM region WHERE (SELECT n FROM region_size) <= %s
                  EXCEPT SELECT unnest($3)),
        every AS (
            SELECT * FROM unnest($3, $4, $5) AS u(id, chunk_id, score)
            UNION ALL
            SELECT c.id, c.chunk_id, %s FROM fresh f JOIN rag.chunks c ON c.id = f.id %s),
        best AS (SELECT id FROM every
                 WHERE ($2->>'min_score') IS NULL OR score >= ($2->>'min_score')::float8
                 ORDER BY score DESC, chunk_id LIMIT %s)
        SELECT (SELECT n FROM region_size),
               CASE WHEN (SELECT n FROM region_size) <= %s THEN (%s) END,
               (SELECT count(*) FROM every)$q$,
        array_to_string(v_boxes, ' UNION ALL '), p_budget + 1, p_budget, p_sql.score,
        p_sql.joins, p_k, p_budget, api.rows_sql(p_sql, 'best b'));
END
$$;

CREATE OR REPLACE FUNCTION api.topk_threshold(
    p_sql record, p_vectors vector[], p_space_weights float8[], p_args jsonb, p_k integer,
    p_w_cos float8, p_w_rec float8, p_w_sig float8, p_now float8,
    p_depth integer, p_max_depth integer, p_region_budget integer, p_region_limit integer,
    OUT rows jsonb, OUT candidates bigint, OUT closed boolean, OUT depth integer,
    OUT rounds jsonb
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_clock timestamptz := clock_timestamp();
    v_min_score float8 := (p_args ->> 'min_score')::float8;
    v_ids bigint[];
    v_chunk_ids text[];
    v_scores float8[];
    v_far float8[];
    v_theta float8;
    v_sem_bound float8;
    v_sigma float8;
    v_boxes box[];
    v_budget integer;
    v_region bigint;
BEGIN
    depth := p_depth;
    rounds := '[]';
    LOOP
        EXECUTE api.read_sql(p_sql, p_space_weights, p_k, p_w_cos, p_w_rec, p_w_sig, depth)
        INTO v_ids, v_chunk_ids, v_scores, v_far
        USING p_vectors, p_args;
        SELECT s INTO v_theta FROM unnest(v_scores) s
        WHERE v_min_score IS NULL OR s >= v_min_score
        ORDER BY s DESC OFFSET p_k - 1 LIMIT 1;
        v_theta := coalesce(v_theta, v_min_score, '-Infinity');
        -- A chunk not read in space i is at least as far as the farthest read there, up
        -- to the index's half-precision rounding (similarity 0 for a chunk with no
        -- vector in the space).
        v_sem_bound := 0;
        FOR i IN 1 .. coalesce(array_length(v_far, 1), 0) LOOP
            IF p_w_cos > 0 AND p_space_weights[i] > 0 THEN
                v_sem_bound := v_sem_bound + p_space_weights[i] * CASE
                    WHEN v_far[i] IS NULL THEN 1
                    ELSE greatest(0, 1 - v_far[i] + api.ann_distance_error()) END;
            END IF;
        END LOOP;
        v_sigma := v_theta - p_w_cos * v_sem_bound - 1e-9;
        v_boxes := api.region_boxes(v_sigma, p_w_rec, p_w_sig, p_sql.rec_function,
                                    p_sql.rec_scale, p_now / 86400);
        v_budget := CASE WHEN p_w_cos = 0 OR depth >= p_max_depth THEN p_region_limit
                         ELSE greatest(p_region_budget, 8 * depth) END;
        EXECUTE api.finish_sql(p_sql, p_k, cardinality(v_boxes), v_budget)
        INTO v_region, rows, candidates
        USING p_vectors, p_args, v_ids, v_chunk_ids, v_scores, v_boxes, v_sigma;
        rounds := rounds || jsonb_build_object(
            'depth', depth, 'theta', v_theta, 'sigma', v_sigma, 'region', v_region,
            'boxes', cardinality(v_boxes), 'scored', candidates,
            'ms', round((extract(epoch FROM clock_timestamp() - v_clock) * 1000)::numeric, 3));
        IF v_region <= v_budget THEN
            closed := true;
            RETURN;
        END IF;
        IF p_w_cos = 0 OR depth >= p_max_depth THEN
            rows := NULL;  -- the bound did not close: the caller scans
            closed := false;
            RETURN;
        END IF;
        depth := least(depth * 4, p_max_depth);
    END LOOP;
END
$$;

-- Should this request be answered by scanning? True when the filters leave few chunks
-- (the planner's estimate), or the whole collection is small.
CREATE OR REPLACE FUNCTION api.prefer_scan(p_sql record, p_args jsonb, p_scan_rows integer)
RETURNS boolean
LANGUAGE plpgsql  -- VOLATILE: EXPLAIN is not allowed in a STABLE function
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
    v_filters jsonb := coalesce(p_filters, '{}');
    v_strategy text := coalesce(v_options ->> 'strategy', 'auto');
    v_ef_search integer := coalesce((v_options ->> 'ef_search')::integer, 100);
    v_now float8 := date_part('epoch', coalesce((v_options ->> 'as_of')::timestamptz, now()));
    v_sql record;
    v_args jsonb;
    v_found record;
    v_rows jsonb;
    v_candidates bigint := 0;
    v_depth integer;
    v_rounds jsonb;
BEGIN
    IF p_k IS NULL OR p_k < 1 THEN
        PERFORM api.raise_bad_argument('k must be >= 1');
    END IF;
    IF v_strategy NOT IN ('auto', 'scan', 'threshold') THEN
        PERFORM api.raise_bad_argument('strategy must be auto, scan or threshold');
    END IF;
    v_sql := api.search_sql(p_vectors, p_spaces, p_space_weights, p_w_cos, p_w_rec, p_w_sig,
                            v_filters, v_options, v_now);
    v_args := api.search_args(v_filters, v_options);
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
            v_sql, p_vectors, p_space_weights, v_args, p_k, p_w_cos, p_w_rec, p_w_sig, v_now,
            greatest(2 * p_k, v_ef_search),
            coalesce((v_options ->> 'max_depth')::integer, 2560),
            coalesce((v_options ->> 'region_budget')::integer, 400),
            coalesce((v_options ->> 'region_limit')::integer, 20000));
        v_rows := v_found.rows;
        v_candidates := v_found.candidates;
        v_depth := v_found.depth;
        v_rounds := v_found.rounds;
        IF NOT v_found.closed THEN
            v_strategy := 'scan';  -- the bound did not close within the budget
        END IF;
    END IF;
    IF v_strategy = 'scan' THEN
        v_found := api.topk_scan(v_sql, p_vectors, v_args, p_k, p_w_cos);
        v_rows := v_found.rows;
        v_candidates := v_candidates + v_found.candidates;
    END IF;

    RETURN jsonb_build_object(
        'rows', v_rows,
        'meta', jsonb_build_object(
            'strategy', v_strategy,
            'exact', true,
            'fell_back', v_depth IS NOT NULL AND v_strategy = 'scan',
            'depth', v_depth,
            'rounds', v_rounds,
            'candidates_scanned', v_candidates,
            'search_time_ms',
                round((extract(epoch FROM clock_timestamp() - v_started) * 1000)::numeric, 3)));
END
$$;
