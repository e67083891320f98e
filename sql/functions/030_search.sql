-- Weighted top-k search: the one place the ranking rule lives.
--
--   score = w_cos * sem + w_lex * lex + w_rec * rec + w_sig * sig
--   sem   = sum over query spaces s of space_weight_s * (1 - cos_dist_s)
--           (a chunk with no vector in a space contributes 0 for that space)
--   lex   = normalised BM25 of the query text (api.lex_matches; 0 for a chunk holding no term)
--   rec   = recency of days_old (api.recency_sql)
--   sig   = rag.chunks.signal
--
-- Ties are broken by chunk_id. The caller passes weights already normalised.
-- Eligibility: with min_similarity, a chunk whose sem is lower has no score; with a
-- keyword part and no semantic part (w_lex > 0, w_cos = 0), neither has a chunk that
-- holds none of the query's terms. The top-k are the k best eligible chunks that pass
-- the filters; with max_per_source = m > 0, the k best such that no source (src, or
-- doc_id when src is empty) has more than m: walking the ranking, a chunk is taken
-- unless m better chunks of its source were taken (so the result still has k rows
-- whenever k eligible chunks remain under the cap).
--
-- Two strategies find the top-k (api.rag_topk_weighted picks one):
--   scan       score every chunk that passes the filters (exact; cost ~ filtered rows);
--   threshold  read each component in descending order from an index and stop as soon
--              as no unread chunk can reach the k-th score (Fagin's threshold
--              algorithm; see api.topk_threshold).
--
-- The statements built here share one parameter list:
--   $1 query vectors (vector[], one per space, in p_spaces order)
--   $2 request arguments (jsonb): doc_ids, src_like, tags_any, tags_all, created_after,
--      created_before, min_score
--   $3 chunk ids (bigint[])      $4 their chunk_ids (text[])   $5 their scores (float8[])
--   $6 region boxes (box[])      $7 sigma (float8)             $8 ids read (bigint[])
--   $9 numbers (float8[]): w_cos, w_rec, w_sig, recency scale, now (epoch seconds),
--      w_lex, then one weight per space
--   $10 chunk ids matching the query's terms (bigint[])   $11 their lex (float8[])
--   $12 the sources of $3 (text[])
-- Weights are parameters, not literals, so the text of a statement depends only on the
-- request's shape; statements without filters are prepared once per connection and run
-- from the plan cache (api.run_cached), which saves most of the planning per search.

CREATE OR REPLACE FUNCTION api.jsonb_text_array(p_value jsonb)
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT ARRAY(SELECT jsonb_array_elements_text(p_value)) $$;

-- The parameter types of the statements above, in order.
CREATE OR REPLACE FUNCTION api.search_param_types()
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$ SELECT 'vector[], jsonb, bigint[], text[], float8[], box[], float8, bigint[], float8[],
               bigint[], float8[], text[]' $$;

-- The $9 array of one request.
CREATE OR REPLACE FUNCTION api.search_numbers(
    p_w_cos float8, p_w_rec float8, p_w_sig float8, p_rec_scale float8, p_now float8,
    p_space_weights float8[], p_w_lex float8 DEFAULT 0
) RETURNS float8[]
LANGUAGE sql IMMUTABLE
AS $$ SELECT ARRAY[p_w_cos, p_w_rec, p_w_sig, p_rec_scale, p_now, p_w_lex] || p_space_weights $$;

-- SQL fragments for one request: vector-table joins, the score and its parts, filters.
-- A weight that is 0 leaves its part out of the text (and its joins out of the scan).
CREATE OR REPLACE FUNCTION api.search_sql(
    p_vectors vector[],
    p_spaces text[],
    p_space_weights float8[],
    p_w_cos float8,
    p_w_rec float8,
    p_w_sig float8,
    p_filters jsonb,
    p_options jsonb,
    p_w_lex float8 DEFAULT 0,
    OUT joins text,        -- LEFT JOIN of each query space's vector table (v1, v2, ...)
    OUT lex_join text,     -- LEFT JOIN of the keyword matches ($10, $11) as lx
    OUT sem text,          -- the semantic part, over those joins
    OUT lex text,          -- the keyword part, over lx (NULL when not scored)
    OUT days text,         -- days_old of c
    OUT rec text,          -- recency of c
    OUT stat text,         -- w_rec * rec + w_sig * sig: the part no vector is needed for
    OUT known text,        -- stat + w_lex * lex: the part known before reading vectors
    OUT score text,        -- the whole score (NULL: not eligible)
    OUT source text,       -- what max_per_source counts: src, or doc_id when src is empty
    OUT keyword_only boolean,  -- only chunks holding a query term are eligible
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
        IF p_space_weights[i] <> 0 THEN
            sem := sem || format(' + $9[%s] * coalesce(1 - (v%s.embedding <=> $1[%s]), 0)',
                                 6 + i, i, i);
        END IF;
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
    days := api.days_old_sql('$9[5]');
    rec := api.recency_sql(rec_function, '$9[4]', days);
    stat := format('(%s + %s)',
                   CASE WHEN p_w_rec = 0 THEN '0' ELSE '$9[2] * ' || rec END,
                   CASE WHEN p_w_sig = 0 THEN '0' ELSE '$9[3] * c.signal' END);
    lex_join := '';
    lex := 'NULL::float8';
    known := stat;
    IF p_w_lex > 0 THEN
        lex_join := ' LEFT JOIN unnest($10, $11) AS lx(id, lex) ON lx.id = c.id';
        lex := 'coalesce(lx.lex, 0)';
        known := format('(%s + $9[6] * %s)', stat, lex);
    END IF;
    score := format('(%s + %s)',
                    CASE WHEN p_w_cos = 0 THEN '0' ELSE '$9[1] * (' || sem || ')' END, known);
    source := 'coalesce(nullif(c.src, ''''), c.doc_id)';
    keyword_only := p_w_lex > 0 AND p_w_cos = 0;
    IF keyword_only THEN
        score := format('(CASE WHEN lx.id IS NOT NULL THEN %s END)', score);
    END IF;
    -- min_similarity: a chunk whose semantic part is lower is not eligible (score NULL).
    IF p_options ? 'min_similarity' THEN
        score := format('(CASE WHEN (%s) >= ($2->>''min_similarity'')::float8 THEN %s END)',
                        sem, score);
    END IF;

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
        'min_score', (p_options ->> 'min_score')::float8,
        'min_similarity', (p_options ->> 'min_similarity')::float8,
        'max_per_source', coalesce((p_options ->> 'max_per_source')::integer, 0))
$$;

-- The name of a prepared statement for p_sql on this connection, preparing it the first
-- time. A connection keeps at most 256 of them.
CREATE OR REPLACE FUNCTION api.prepared(p_sql text)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    v_name text := 'rag_' || md5(p_sql);
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_prepared_statements WHERE name = v_name) THEN
        IF (SELECT count(*) FROM pg_prepared_statements WHERE name LIKE 'rag\_%') >= 256 THEN
            DEALLOCATE ALL;
        END IF;
        EXECUTE format('PREPARE %I(%s) AS %s', v_name, api.search_param_types(), p_sql);
    END IF;
    RETURN v_name;
END
$$;

-- What to EXECUTE for the statement p_sql with its parameters. Without p_cache:
-- p_sql itself, run with USING $1 .. $12 (planned with the actual values, which is what
-- filters need). With it: an EXECUTE of the connection's prepared statement for p_sql,
-- whose plan is cached; "EXECUTE name(...)" takes no parameters, so the values are
-- written into it as literals.
CREATE OR REPLACE FUNCTION api.statement(
    p_sql text, p_cache boolean,
    p1 vector[], p2 jsonb, p3 bigint[], p4 text[], p5 float8[], p6 box[], p7 float8,
    p8 bigint[], p9 float8[], p10 bigint[], p11 float8[], p12 text[]
) RETURNS text
LANGUAGE plpgsql
AS $$
BEGIN
    IF NOT p_cache THEN
        RETURN p_sql;
    END IF;
    RETURN format(
        'EXECUTE %I(%L::vector[], %L::jsonb, %L::bigint[], %L::text[], %L::float8[],
                    %L::box[], %L::float8, %L::bigint[], %L::float8[], %L::bigint[],
                    %L::float8[], %L::text[])',
        api.prepared(p_sql), p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12);
END
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
                   'sem', t.sem, 'lex', t.lex, 'rec', t.rec, 'sig', t.sig, 'sims', t.sims,
                   'tags', t.tags, 'metadata', t.metadata)
                 ORDER BY t.score DESC, t.chunk_id), '[]'::jsonb)
        FROM (
            SELECT c.chunk_id, c.doc_id, c.src, c.chunk, c.model, c.scale, c.created_at,
                   c.tags, c.metadata, c.signal::float8 AS sig, %s AS score, %s AS sem,
                   %s AS lex, %s AS rec, %s AS sims, %s AS cos_dist, %s AS l2_dist,
                   %s AS days_old
            FROM %s JOIN rag.chunks c ON c.id = b.id %s %s
        ) t$q$,
        p_sql.score, p_sql.sem, p_sql.lex, p_sql.rec, p_sql.sims, v_dist, v_l2, p_sql.days,
        p_best, p_sql.joins, p_sql.lex_join);
END
$$;

-- The eligibility rules and min_score as a condition on a relation with a "score" column.
CREATE OR REPLACE FUNCTION api.eligible_sql(p_sql record, p_args jsonb)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    RETURN concat_ws(' AND ', 'true',
        CASE WHEN p_sql.keyword_only OR p_args ->> 'min_similarity' IS NOT NULL
             THEN 'score IS NOT NULL' END,
        CASE WHEN p_args ->> 'min_score' IS NOT NULL
             THEN 'score >= ($2->>''min_score'')::float8' END);
END
$$;

-- The k best of a relation "every" (id, chunk_id, score, source) of scored eligible
-- chunks, under max_per_source (a window over each source; no window without a cap).
CREATE OR REPLACE FUNCTION api.best_sql(p_args jsonb, p_k integer)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
    SELECT CASE WHEN coalesce((p_args ->> 'max_per_source')::integer, 0) = 0 THEN format(
        'SELECT id, chunk_id, score FROM every ORDER BY score DESC, chunk_id LIMIT %s', p_k)
    ELSE format(
        'SELECT id, chunk_id, score FROM (
             SELECT id, chunk_id, score, row_number() OVER (
                        PARTITION BY source ORDER BY score DESC, chunk_id) AS nth
             FROM every) ranked
         WHERE nth <= %s ORDER BY score DESC, chunk_id LIMIT %s',
        (p_args ->> 'max_per_source')::integer, p_k) END
$$;

-- Strategy "scan": score every chunk that passes the filters. Under max_per_source, the
-- k best under the cap are found among the L best overall (L = 4k, then 8 times more
-- while the L best hold fewer than k under the cap and the collection holds more):
-- the cap never lets a lower chunk displace a higher one, so the k best under the cap
-- of the L best are those of all chunks as soon as there are k of them.
CREATE OR REPLACE FUNCTION api.topk_scan(
    p_sql record, p_vectors vector[], p_args jsonb, p_numbers float8[], p_k integer,
    p_w_cos float8, p_lex_ids bigint[], p_lex_scores float8[],
    OUT rows jsonb, OUT candidates bigint
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_capped boolean := coalesce((p_args ->> 'max_per_source')::integer, 0) > 0;
    v_limit integer := CASE WHEN v_capped THEN 4 * p_k ELSE p_k END;
    v_needs_vectors boolean := p_w_cos > 0 OR p_args ->> 'min_similarity' IS NOT NULL;
    v_read integer;
    v_ids bigint[];
BEGIN
    LOOP
        -- OFFSET 0 keeps the score from being computed twice (in the filter and the sort).
        EXECUTE format(
            'WITH every AS (
                 SELECT * FROM (
                     SELECT c.id, c.chunk_id, %s AS source, %s AS score
                     FROM rag.chunks c %s %s WHERE %s OFFSET 0) s
                 WHERE %s ORDER BY score DESC, chunk_id LIMIT %s)
             SELECT (SELECT count(*) FROM every),
                    (SELECT coalesce(array_agg(id ORDER BY score DESC, chunk_id), ''{}'')
                     FROM (%s) b)',
            p_sql.source, p_sql.score, p_sql.lex_join,
            CASE WHEN v_needs_vectors THEN p_sql.joins ELSE '' END, p_sql.filter,
            api.eligible_sql(p_sql, p_args), v_limit, api.best_sql(p_args, p_k))
        INTO v_read, v_ids
        USING p_vectors, p_args, NULL::bigint[], NULL::text[], NULL::float8[], NULL::box[],
              NULL::float8, NULL::bigint[], p_numbers, p_lex_ids, p_lex_scores, NULL::text[];
        EXIT WHEN cardinality(v_ids) >= p_k OR v_read < v_limit;
        v_limit := v_limit * 8;
    END LOOP;
    EXECUTE format('SELECT count(*) FROM rag.chunks c WHERE %s', p_sql.filter)
    INTO candidates
    USING p_vectors, p_args;
    EXECUTE api.rows_sql(p_sql, 'unnest($3) AS b(id)') INTO rows
    USING p_vectors, p_args, v_ids, NULL::text[], NULL::float8[], NULL::box[], NULL::float8,
          NULL::bigint[], p_numbers, p_lex_ids, p_lex_scores, NULL::text[];
END
$$;

-- Strategy "threshold": exact top-k without scoring every chunk.
--
-- Every component is bounded (sem <= 1 per space, rec and sig in [0, 1]), so:
--   1. each query space is read nearest-first from its HNSW index (iterative scan,
--      strict order, filters applied) to depth D; a chunk not read in space s has a
--      similarity of at most sim_bound_s = 1 - (distance of the D-th read) (plus the
--      index's half-precision rounding, api.ann_distance_error);
--   2. seeds are read too: the newest and the highest-signal chunks, and some whose
--      recency and signal alone score high; so is every chunk holding one of the
--      query's terms (api.lex_matches), so that an unread chunk has lex = 0;
--   3. what was read is scored in full (with one space, only the chunks whose bounds
--      say they can still make the top-k; see api.read_sql); theta = the k-th score;
--   4. a chunk not read scores at most  w_cos * sum_s w_s * sim_bound_s + stat(c), so it
--      can only reach theta when stat(c) = w_rec * rec + w_sig * sig >= sigma, with
--      sigma = theta - w_cos * sum_s w_s * sim_bound_s. That "region" is a staircase in
--      the (created_at, signal) plane: the GiST index on that plane returns it as a
--      union of boxes (api.region_boxes), each candidate checked exactly;
--   5. the region is scored; the k best of everything scored are the top-k.
-- When the region holds more than a budget (8 x D chunks, at least p_region_budget),
-- scoring it would cost more than reading deeper: the semantic depth grows (x4), which
-- tightens the bound, up to p_max_depth. At that depth (or with no semantic part) a
-- region of up to p_region_limit chunks is scored; a larger one means the bound did not
-- close, and the caller scans. The answer is exact with respect to the HNSW index
-- (which may, rarely, miss a near neighbour); strategy "scan" is exact outright.

-- The boxes of the region union, as one relation of (id, created_at, signal): one
-- index-only scan per box, read lazily, so a LIMIT above stops them early.
CREATE OR REPLACE FUNCTION api.boxes_sql(p_sql record, p_boxes integer)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    v_boxes text[] := ARRAY['SELECT NULL::bigint, NULL::timestamptz, NULL::real WHERE false'];
BEGIN
    FOR j IN 1 .. p_boxes LOOP
        v_boxes := v_boxes || format(
            'SELECT c.id, c.created_at, c.signal FROM rag.chunks c
             WHERE point(rag.epoch_days(c.created_at), c.signal) <@ $6[%s] AND %s',
            j, p_sql.filter);
    END LOOP;
    RETURN '(' || array_to_string(v_boxes, ' UNION ALL ') || ') AS c(id, created_at, signal)';
END
$$;

-- Steps 1-3 at depth p_depth, as one statement: the ids of every chunk read; the ids,
-- chunk_ids, scores and sources of those scored; per query space the farthest distance
-- read (NULL: nothing read). $6 holds the boxes of the seeds' high static region; every
-- chunk matching the query's terms ($10) is read.
CREATE OR REPLACE FUNCTION api.read_sql(
    p_sql record, p_space_weights float8[], p_k integer,
    p_w_cos float8, p_w_rec float8, p_w_sig float8, p_depth integer, p_seed_boxes integer
) RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    v_from text := CASE WHEN p_sql.filter = 'true' THEN ''
                        ELSE format(' JOIN rag.chunks c ON c.id = v.chunk_pk WHERE %s',
                                    p_sql.filter) END;
    v_ctes text[] := ARRAY['nothing AS (SELECT NULL::bigint AS id, NULL::float8 AS d WHERE false)'];
    v_sources text[] := ARRAY['SELECT id, d FROM nothing'];
    v_far text[] := '{}';
    v_streams integer := 0;
    v_prune text := 'true';
BEGIN
    IF p_w_rec > 0 THEN
        v_ctes := v_ctes || format(
            'seed_rec AS (SELECT c.id FROM rag.chunks c WHERE %s
                          ORDER BY c.created_at DESC LIMIT %s)', p_sql.filter, p_k);
        v_sources := v_sources || 'SELECT id, NULL FROM seed_rec'::text;
    END IF;
    IF p_w_sig > 0 THEN
        v_ctes := v_ctes || format(
            'seed_sig AS (SELECT c.id FROM rag.chunks c WHERE %s
                          ORDER BY c.signal DESC LIMIT %s)', p_sql.filter, p_k);
        v_sources := v_sources || 'SELECT id, NULL FROM seed_sig'::text;
    END IF;
    IF p_sql.lex_join <> '' THEN
        v_sources := v_sources || 'SELECT unnest($10), NULL'::text;
    END IF;
    IF p_seed_boxes > 0 THEN
        v_ctes := v_ctes || format(
            'seed_stat AS (SELECT c.id FROM %s WHERE %s >= 0.75 * ($9[2] + $9[3]) LIMIT %s)',
            api.boxes_sql(p_sql, p_seed_boxes), p_sql.stat, 4 * p_k);
        v_sources := v_sources || 'SELECT id, NULL FROM seed_stat'::text;
    END IF;
    FOR i IN 1 .. coalesce(array_length(p_sql.tables, 1), 0) LOOP
        IF p_w_cos > 0 AND p_space_weights[i] > 0 THEN
            v_ctes := v_ctes || format(
                's%s AS (SELECT v.chunk_pk AS id, %s AS d
                         FROM rag.%I v %s ORDER BY 2 LIMIT %s)',
                i, api.ann_order_sql('v', format('$1[%s]', i), p_sql.dims[i]),
                p_sql.tables[i], v_from, p_depth);
            v_sources := v_sources || format('SELECT id, d FROM s%s', i);
            v_far := v_far || format('(SELECT max(d) FROM s%s)', i);
            v_streams := v_streams + 1;
        ELSE
            v_far := v_far || 'NULL::float8'::text;
        END IF;
    END LOOP;
    -- With a single space, a chunk read from its stream has a score between
    -- w_cos * (1 - d -/+ e) + known (d: the index's distance, e: its rounding), known
    -- without its vector. Only chunks whose upper end reaches the k-th best lower end
    -- (or min_score) can make the top-k; the others are never fetched and scored.
    IF v_streams = 1 AND array_length(p_sql.tables, 1) = 1
       AND position('min_similarity' IN p_sql.score) = 0 THEN
        v_prune := format(
            $p$(c.d IS NULL OR $9[1] * (1 - c.d + api.ann_distance_error()) + c.stat >= greatest(
                 (SELECT lb FROM (SELECT $9[1] * (1 - d - api.ann_distance_error()) + stat AS lb
                                  FROM approx WHERE d IS NOT NULL) l
                  ORDER BY lb DESC OFFSET %s LIMIT 1),
                 ($2->>'min_score')::float8))$p$,
            p_k - 1);
    END IF;
    RETURN format(
        $q$WITH %s,
        read AS (SELECT id, min(d) AS d FROM (%s) r GROUP BY id),
        approx AS (SELECT r.id, r.d, c.chunk_id, c.src, c.doc_id, c.created_at, c.signal,
                          %s AS stat
                   FROM read r JOIN rag.chunks c ON c.id = r.id %s),
        scored AS (SELECT c.id, c.chunk_id, %s AS score, %s AS source
                   FROM approx c %s %s WHERE %s)
        SELECT (SELECT coalesce(array_agg(id), '{}') FROM read),
               coalesce(array_agg(id), '{}'), coalesce(array_agg(chunk_id), '{}'),
               coalesce(array_agg(score), '{}'), coalesce(array_agg(source), '{}'),
               ARRAY[%s]::float8[]
        FROM scored$q$,
        array_to_string(v_ctes, ', '), array_to_string(v_sources, ' UNION ALL '),
        p_sql.known, p_sql.lex_join, p_sql.score, p_sql.source, p_sql.joins, p_sql.lex_join,
        v_prune, coalesce(array_to_string(v_far, ', '), ''));
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

-- Steps 4-5 as one statement: the region (up to p_budget + 1 chunks, in p_boxes boxes),
-- less what was read ($8), is scored and merged with what was scored ($3-$5, $12). Returns
-- the region size, the response rows (when the region was within the budget) and how
-- many chunks were scored in all.
CREATE OR REPLACE FUNCTION api.finish_sql(p_sql record, p_args jsonb, p_k integer,
                                          p_boxes integer, p_budget integer)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    RETURN format(
        $q$WITH region AS (SELECT c.id FROM %s WHERE %s >= $7 LIMIT %s),
        region_size AS (SELECT count(*) AS n FROM region),
        fresh AS (SELECT id FROM region WHERE (SELECT n FROM region_size) <= %s
                  EXCEPT SELECT unnest($8)),
        scored AS (
            SELECT * FROM unnest($3, $4, $5, $12) AS u(id, chunk_id, score, source)
            UNION ALL
            SELECT c.id, c.chunk_id, %s, %s
            FROM fresh f JOIN rag.chunks c ON c.id = f.id %s %s),
        every AS (SELECT * FROM scored WHERE score IS NOT NULL
                    AND (($2->>'min_score') IS NULL OR score >= ($2->>'min_score')::float8)),
        best AS (%s)
        SELECT (SELECT n FROM region_size),
               CASE WHEN (SELECT n FROM region_size) <= %s THEN (%s) END,
               (SELECT count(*) FROM scored)$q$,
        api.boxes_sql(p_sql, p_boxes), p_sql.stat, p_budget + 1, p_budget,
        p_sql.score, p_sql.source, p_sql.joins, p_sql.lex_join, api.best_sql(p_args, p_k),
        p_budget, api.rows_sql(p_sql, 'best b'));
END
$$;

CREATE OR REPLACE FUNCTION api.topk_threshold(
    p_sql record, p_vectors vector[], p_space_weights float8[], p_args jsonb,
    p_numbers float8[], p_k integer, p_w_cos float8, p_w_rec float8, p_w_sig float8,
    p_lex_ids bigint[], p_lex_scores float8[],
    p_depth integer, p_max_depth integer, p_region_budget integer, p_region_limit integer,
    OUT rows jsonb, OUT candidates bigint, OUT closed boolean, OUT depth integer,
    OUT rounds jsonb
)
LANGUAGE plpgsql
AS $$
DECLARE
    v_clock timestamptz := clock_timestamp();
    v_min_score float8 := (p_args ->> 'min_score')::float8;
    v_cap integer := coalesce((p_args ->> 'max_per_source')::integer, 0);
    v_now_days float8 := p_numbers[5] / 86400;
    v_cache boolean := p_sql.filter = 'true';
    v_read bigint[];
    v_ids bigint[];
    v_chunk_ids text[];
    v_scores float8[];
    v_sources text[];
    v_far float8[];
    v_theta float8;
    v_sem_bound float8;
    v_sigma float8;
    v_boxes box[];
    v_seed_boxes box[] := api.region_boxes(0.75 * (p_w_rec + p_w_sig), p_w_rec, p_w_sig,
                                           p_sql.rec_function, p_sql.rec_scale, v_now_days);
    v_budget integer;
    v_region bigint;
BEGIN
    depth := p_depth;
    rounds := '[]';
    LOOP
        EXECUTE api.statement(
            api.read_sql(p_sql, p_space_weights, p_k, p_w_cos, p_w_rec, p_w_sig, depth,
                         cardinality(v_seed_boxes)),
            v_cache, p_vectors, p_args, NULL, NULL, NULL, v_seed_boxes, NULL, NULL, p_numbers,
            p_lex_ids, p_lex_scores, NULL)
        INTO v_read, v_ids, v_chunk_ids, v_scores, v_sources, v_far
        USING p_vectors, p_args, NULL::bigint[], NULL::text[], NULL::float8[], v_seed_boxes,
              NULL::float8, NULL::bigint[], p_numbers, p_lex_ids, p_lex_scores, NULL::text[];
        -- theta: the k-th best eligible score read, under the per-source cap
        SELECT s INTO v_theta
        FROM (SELECT s, row_number() OVER (PARTITION BY src ORDER BY s DESC, cid) AS nth
              FROM unnest(v_scores, v_sources, v_chunk_ids) AS u(s, src, cid)
              WHERE s IS NOT NULL AND (v_min_score IS NULL OR s >= v_min_score)) eligible
        WHERE v_cap = 0 OR nth <= v_cap
        ORDER BY s DESC OFFSET p_k - 1 LIMIT 1;
        v_theta := coalesce(v_theta, v_min_score, '-Infinity');
        -- A chunk not read in space i is at least as far as the farthest read there, up
        -- to the index's half-precision rounding (similarity 0 for a chunk with no
        -- vector in the space).
        v_sem_bound := 0;
        FOR i IN 1 .. coalesce(array_length(v_far, 1), 0) LOOP
            IF p_space_weights[i] > 0 THEN  -- a space not read (w_cos = 0) bounds nothing
                v_sem_bound := v_sem_bound + p_space_weights[i] * CASE
                    WHEN v_far[i] IS NULL THEN 1
                    ELSE greatest(0, 1 - v_far[i] + api.ann_distance_error()) END;
            END IF;
        END LOOP;
        v_sigma := v_theta - p_w_cos * v_sem_bound - 1e-9;
        v_boxes := CASE WHEN v_sem_bound < (p_args ->> 'min_similarity')::float8
                        THEN '{}'  -- no unread chunk is similar enough to be eligible
                        WHEN p_sql.keyword_only
                        THEN '{}'  -- every chunk holding a query term was read
                        ELSE api.region_boxes(v_sigma, p_w_rec, p_w_sig, p_sql.rec_function,
                                              p_sql.rec_scale, v_now_days) END;
        v_budget := CASE WHEN p_w_cos = 0 OR depth >= p_max_depth THEN p_region_limit
                         ELSE greatest(p_region_budget, 8 * depth) END;
        EXECUTE api.statement(
            api.finish_sql(p_sql, p_args, p_k, cardinality(v_boxes), v_budget), v_cache,
            p_vectors, p_args, v_ids, v_chunk_ids, v_scores, v_boxes, v_sigma, v_read,
            p_numbers, p_lex_ids, p_lex_scores, v_sources)
        INTO v_region, rows, candidates
        USING p_vectors, p_args, v_ids, v_chunk_ids, v_scores, v_boxes, v_sigma, v_read,
              p_numbers, p_lex_ids, p_lex_scores, v_sources;
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
    p_options jsonb DEFAULT '{}',
    p_w_lex float8 DEFAULT 0,
    p_query text DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
SET hnsw.iterative_scan = 'strict_order'
SET hnsw.ef_search = 100
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
    v_numbers float8[];
    v_found record;
    v_rows jsonb;
    v_candidates bigint := 0;
    v_depth integer;
    v_rounds jsonb;
    v_lex record;
    v_region_limit integer := coalesce((v_options ->> 'region_limit')::integer, 20000);
BEGIN
    IF p_k IS NULL OR p_k < 1 THEN
        PERFORM api.raise_bad_argument('k must be >= 1');
    END IF;
    IF v_strategy NOT IN ('auto', 'scan', 'threshold') THEN
        PERFORM api.raise_bad_argument('strategy must be auto, scan or threshold');
    END IF;
    IF p_w_lex IS NULL OR NOT p_w_lex BETWEEN 0 AND 1 THEN
        PERFORM api.raise_bad_argument('w_lex must be in [0, 1]');
    END IF;
    v_sql := api.search_sql(p_vectors, p_spaces, p_space_weights, p_w_cos, p_w_rec, p_w_sig,
                            v_filters, v_options, p_w_lex);
    v_args := api.search_args(v_filters, v_options);
    v_numbers := api.search_numbers(p_w_cos, p_w_rec, p_w_sig, v_sql.rec_scale, v_now,
                                    coalesce(p_space_weights, '{}'), p_w_lex);
    PERFORM set_config('hnsw.ef_search', v_ef_search::text, true);
    v_lex := api.lex_matches(CASE WHEN p_w_lex > 0 THEN p_query END, v_sql.filter, v_args,
                             v_options -> 'bm25');

    IF (v_options ->> 'exact')::boolean THEN
        v_strategy := 'scan';
    ELSIF v_strategy = 'auto' THEN
        -- so many keyword matches that reading them all costs about what a scan does
        v_strategy := CASE WHEN cardinality(v_lex.ids) > v_region_limit
                             OR api.prefer_scan(v_sql, v_args,
                                coalesce((v_options ->> 'scan_rows')::integer, 10000))
                           THEN 'scan' ELSE 'threshold' END;
    END IF;

    IF v_strategy = 'threshold' THEN
        v_found := api.topk_threshold(
            v_sql, p_vectors, p_space_weights, v_args, v_numbers, p_k, p_w_cos, p_w_rec,
            p_w_sig, v_lex.ids, v_lex.scores, greatest(2 * p_k, v_ef_search),
            coalesce((v_options ->> 'max_depth')::integer, 2560),
            coalesce((v_options ->> 'region_budget')::integer, 400), v_region_limit);
        v_rows := v_found.rows;
        v_candidates := v_found.candidates;
        v_depth := v_found.depth;
        v_rounds := v_found.rounds;
        IF NOT v_found.closed THEN
            v_strategy := 'scan';  -- the bound did not close within the budget
        END IF;
    END IF;
    IF v_strategy = 'scan' THEN
        v_found := api.topk_scan(v_sql, p_vectors, v_args, v_numbers, p_k, p_w_cos,
                                 v_lex.ids, v_lex.scores);
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
            'keyword_matches', CASE WHEN p_w_lex > 0 THEN cardinality(v_lex.ids) END,
            'search_time_ms',
                round((extract(epoch FROM clock_timestamp() - v_started) * 1000)::numeric, 3)));
END
$$;
