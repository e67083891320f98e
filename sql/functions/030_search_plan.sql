-- The search plan of one request, and the engine's knobs with their defaults.

-- Every knob of the search engine and its default, in one place; p_options overrides any
-- of them. The request-level ones apply to direct SQL callers who leave them out (the
-- service always sends its settings): ef_search, bm25 and rrf_k equal the service's
-- defaults (app/settings.py; tests/test_scoring_sql.py holds them equal); max_per_source
-- is 0 here (no cap), where the service's default is 3. The service never sets the
-- others, which tests and benchmarks use to force a path:
--   scan_rows       a collection (or a filtered set) of at most this many chunks is
--                   scanned: scoring them all costs less than any index walk;
--   region_budget   the threshold search scores at most max(region_budget, 8 x depth)
--                   chunks of the static region per round before reading deeper ...
--   region_ratio    ... or max(region_budget, region_ratio x depth) when the plan has
--                   one weighted space (its walk is read on, and its region scored in
--                   the statement that reads it);
--   region_limit    ... and at most this many at the deepest level, then scans;
--   max_depth       the deepest semantic read (chunks per space);
--   lex_limit       a query matching more chunks than this by keyword is scanned;
--   sample_rows     chunks sampled to estimate how many pass a filter;
--   walk_cost       what reading one vector through a filtered index walk costs, in rows
--                   scored by a filtered scan (measured at 1M x 384: about 4);
--   rrf_window      each ranking's depth under fusion rrf.
CREATE FUNCTION api.search_defaults()
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT jsonb_build_object(
        'ef_search', 100, 'bm25', jsonb_build_object('k1', 1.2, 'b', 0.75),
        'max_per_source', 0, 'fusion', 'weighted', 'rrf_k', 60, 'rrf_window', 100,
        'strategy', 'auto', 'scan_rows', 2000, 'region_budget', 400, 'region_ratio', 16,
        'region_limit', 20000, 'max_depth', 2560, 'lex_limit', 20000, 'sample_rows', 2000,
        'walk_cost', 4)
$$;

CREATE FUNCTION api.search_knob(p_options jsonb, p_name text)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT coalesce(p_options -> p_name, api.search_defaults() -> p_name) $$;

-- The spaces of a request, checked: known, one vector each, of the space's dimensions.
CREATE FUNCTION api.plan_spaces(
    p_vectors vector[], p_spaces text[], p_space_weights float8[],
    OUT ids integer[], OUT dims integer[]
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_space rag.spaces;
BEGIN
    IF coalesce(cardinality(p_spaces), 0) <> coalesce(cardinality(p_vectors), 0)
       OR coalesce(cardinality(p_spaces), 0) <> coalesce(cardinality(p_space_weights), 0) THEN
        PERFORM api.raise_bad_argument('spaces, vectors and space weights must have the same length');
    END IF;
    ids := '{}';
    dims := '{}';
    FOR i IN 1 .. coalesce(cardinality(p_spaces), 0) LOOP
        SELECT * INTO v_space FROM rag.spaces WHERE name = p_spaces[i];
        IF NOT FOUND THEN
            PERFORM api.raise_invalid_space(p_spaces[i]);
        END IF;
        IF vector_dims(p_vectors[i]) <> v_space.dims THEN
            PERFORM api.raise_bad_argument(
                format('embedding for space "%s" has %s dimensions, expected %s',
                       v_space.name, vector_dims(p_vectors[i]), v_space.dims),
                jsonb_build_object('space', v_space.name, 'expected', v_space.dims,
                                   'actual', vector_dims(p_vectors[i])));
        END IF;
        IF NOT p_space_weights[i] >= 0 OR p_space_weights[i] = 'Infinity' THEN
            PERFORM api.raise_bad_argument('space weights must be finite numbers >= 0');
        END IF;
        ids := ids || v_space.id;
        dims := dims || v_space.dims;
    END LOOP;
END
$$;

CREATE FUNCTION api.check_weight(p_name text, p_value float8)
RETURNS float8
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    IF p_value IS NULL OR NOT p_value BETWEEN 0 AND 1 THEN
        PERFORM api.raise_bad_argument(format('%s must be in [0, 1]', p_name));
    END IF;
    RETURN p_value;
END
$$;

-- The plan of one request. p_filters: doc_ids, src_prefix, tags_any, tags_all,
-- created_after, created_before, filter (metadata, 006_filters.sql); p_options: the knobs of
-- api.search_defaults() plus recency {function, scale_days | half_life_days}, as_of,
-- min_score, min_similarity, exact (strategy scan). Weights are used as given: the
-- caller normalises them.
CREATE FUNCTION api.search_plan(
    p_vectors vector[], p_spaces text[], p_space_weights float8[], p_k integer,
    p_w_cos float8, p_w_rec float8, p_w_sig float8, p_filters jsonb, p_options jsonb,
    p_w_lex float8, p_query text, p_collection text
) RETURNS api.search_plan
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    p api.search_plan;
    v_options jsonb := coalesce(p_options, '{}');
    v_knobs jsonb := api.search_defaults() || coalesce(p_options, '{}');
    v_recency jsonb := coalesce(v_options -> 'recency', '{}');
    v_spaces record;
    v_lex record;
BEGIN
    IF p_k IS NULL OR p_k < 1 THEN
        PERFORM api.raise_bad_argument('k must be >= 1');
    END IF;
    p.collection_id := api.collection_id(coalesce(p_collection, 'default'));
    p.k := p_k;
    v_spaces := api.plan_spaces(p_vectors, p_spaces, p_space_weights);
    p.space_ids := v_spaces.ids;
    p.space_dims := v_spaces.dims;
    p.space_names := coalesce(p_spaces, '{}');
    p.space_weights := coalesce(p_space_weights, '{}');
    p.vectors := coalesce(p_vectors, '{}');
    p.w_cos := api.check_weight('w_cos', p_w_cos);
    p.w_rec := api.check_weight('w_rec', p_w_rec);
    p.w_sig := api.check_weight('w_sig', p_w_sig);
    p.w_lex := api.check_weight('w_lex', coalesce(p_w_lex, 0));
    IF p.w_cos > 0 AND cardinality(p.space_ids) = 0 THEN
        PERFORM api.raise_bad_argument('w_cos > 0 needs a query vector');
    END IF;
    p.rec_function := coalesce(v_recency ->> 'function', 'inverse');
    p.rec_scale := coalesce((v_recency ->> 'scale_days')::float8,
                            (v_recency ->> 'half_life_days')::float8, 1.0);
    IF NOT p.rec_function = ANY (api.recency_functions()) THEN
        PERFORM api.raise_bad_argument(format('recency.function must be one of %s (got "%s")',
            array_to_string(api.recency_functions(), ', '), p.rec_function));
    END IF;
    IF NOT p.rec_scale BETWEEN 1e-6 AND 1e9 THEN
        PERFORM api.raise_bad_argument('recency scale must be a number of days in [1e-6, 1e9]');
    END IF;
    p.now_epoch := date_part('epoch', coalesce((v_options ->> 'as_of')::timestamptz, now()));
    p.min_score := (v_options ->> 'min_score')::float8;
    p.min_similarity := (v_options ->> 'min_similarity')::float8;
    p.max_per_source := (v_knobs ->> 'max_per_source')::integer;
    p.keyword_only := p.w_lex > 0 AND p.w_cos = 0;
    p.bm25_k1 := (v_knobs -> 'bm25' ->> 'k1')::float8;
    p.bm25_b := (v_knobs -> 'bm25' ->> 'b')::float8;
    p.lex_terms := '{}';
    p.lex_weights := '{}';
    p.lex_avg_len := 1;
    IF p.w_lex > 0 THEN
        v_lex := api.lex_query(p.collection_id, p_query);
        p.lex_terms := v_lex.terms;
        p.lex_weights := v_lex.weights;
        p.lex_avg_len := v_lex.avg_len;
    END IF;
    p.ef_search := (v_knobs ->> 'ef_search')::integer;
    p.fusion := v_knobs ->> 'fusion';
    p.rrf_k := (v_knobs ->> 'rrf_k')::integer;
    p.rrf_window := (v_knobs ->> 'rrf_window')::integer;
    p.strategy := CASE WHEN (v_options ->> 'exact')::boolean THEN 'scan'
                       ELSE v_knobs ->> 'strategy' END;
    p.scan_rows := (v_knobs ->> 'scan_rows')::integer;
    p.region_budget := (v_knobs ->> 'region_budget')::integer;
    p.region_ratio := (v_knobs ->> 'region_ratio')::integer;
    p.region_limit := (v_knobs ->> 'region_limit')::integer;
    p.max_depth := (v_knobs ->> 'max_depth')::integer;
    p.lex_limit := (v_knobs ->> 'lex_limit')::integer;
    p.sample_rows := (v_knobs ->> 'sample_rows')::integer;
    p.walk_cost := (v_knobs ->> 'walk_cost')::float8;
    IF p.fusion NOT IN ('weighted', 'rrf') THEN
        PERFORM api.raise_bad_argument('fusion must be weighted or rrf');
    END IF;
    IF p.strategy NOT IN ('auto', 'scan', 'threshold') THEN
        PERFORM api.raise_bad_argument('strategy must be auto, scan or threshold');
    END IF;
    IF NOT p.ef_search BETWEEN 1 AND 1000 OR NOT p.rrf_k BETWEEN 1 AND 100000
       OR NOT p.rrf_window BETWEEN 1 AND 10000 OR p.max_per_source < 0 THEN
        PERFORM api.raise_bad_argument(
            'ef_search must be 1..1000, rrf_k 1..100000, rrf_window 1..10000, max_per_source >= 0');
    END IF;
    p.filter := api.make_filter(p.collection_id, coalesce(p_filters, '{}'));
    p.filtered := coalesce(p_filters, '{}') <> '{}';
    RETURN p;
END
$$;

-- The semantic part's bound for chunks not read: per searched space, the most similar an
-- unread chunk can be there (p_bounds, NULL: nothing was read there, so 1), weighted; at
-- least 0 per space, as an unread chunk may have no vector in it.
CREATE FUNCTION api.sem_bound(p api.search_plan, p_bounds float8[])
RETURNS float8
LANGUAGE sql IMMUTABLE
AS $$
    SELECT coalesce(sum(w * least(1, greatest(0, coalesce(b, 1)))), 0)
    FROM unnest(p.space_weights, p_bounds) AS u(w, b)
    WHERE w > 0
$$;
