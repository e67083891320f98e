-- The plan of a search written by a SQL client (the service builds its plans in Python,
-- app/search/plan.py, and calls api.topk with them). These are the only checks the search
-- functions make: a SQL client's arguments are checked here, once; a plan is trusted
-- everywhere after.

-- The spaces of a request, checked: known, dense (a SQL client searches dense spaces;
-- sparse and multivector ones through the service), one vector each, of the space's
-- dimensions.
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
        IF v_space.kind <> 'dense' THEN
            PERFORM api.raise_bad_argument(format(
                'space "%s" is %s: api.rag_topk_weighted searches dense spaces (search it '
                'through the service)', v_space.name, v_space.kind));
        END IF;
        IF vector_dims(p_vectors[i]) <> v_space.dims THEN
            PERFORM api.raise_bad_argument(
                format('embedding for space "%s" has %s dimensions, expected %s',
                       v_space.name, vector_dims(p_vectors[i]), v_space.dims),
                jsonb_build_object('space', v_space.name, 'expected', v_space.dims,
                                   'actual', vector_dims(p_vectors[i])));
        END IF;
        IF NOT p_space_weights[i] >= 0 OR p_space_weights[i] IN ('Infinity', 'NaN') THEN
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

-- p_filters: the fields of api.search_filter as a JSON object (doc_ids, src_like (a LIKE
-- pattern), tags_any, tags_all, created_after, created_before, metadata: a jsonpath
-- predicate on the metadata, e.g. '$.year >= 2020'); p_options: the keys of
-- api.search_defaults() to override, plus recency {function, scale_days | half_life_days},
-- as_of, min_score, min_similarity, exact (strategy scan) and offset. Weights are used
-- as given: the caller normalises them.
CREATE FUNCTION api.search_plan(
    p_vectors vector[], p_spaces text[], p_space_weights float8[], p_k integer,
    p_w_cos float8, p_w_rec float8, p_w_sig float8, p_filters jsonb, p_options jsonb,
    p_w_lex float8, p_query text, p_collection text
) RETURNS api.search_plan
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    p api.search_plan;
    v_options jsonb := api.search_defaults() || coalesce(p_options, '{}');
    v_recency jsonb := coalesce(v_options -> 'recency', '{}');
    v_spaces record;
    v_unknown text;
BEGIN
    SELECT k INTO v_unknown FROM jsonb_object_keys(coalesce(p_filters, '{}')) AS k
    WHERE NOT to_jsonb(jsonb_populate_record(NULL::api.search_filter, '{}')) ? k
    LIMIT 1;
    IF v_unknown IS NOT NULL THEN
        PERFORM api.raise_bad_argument(format(
            'unknown filter "%s" (p_filters holds the fields of api.search_filter)', v_unknown));
    END IF;
    IF p_k IS NULL OR p_k < 1 THEN
        PERFORM api.raise_bad_argument('k must be >= 1');
    END IF;
    p := jsonb_populate_record(NULL::api.search_plan, v_options - 'filter' - 'recency');
    p.collection_id := api.collection_id(coalesce(p_collection, 'default'));
    p.k := p_k;
    p.row_from := coalesce((v_options ->> 'offset')::integer, 0);
    v_spaces := api.plan_spaces(p_vectors, p_spaces, p_space_weights);
    p.space_ids := v_spaces.ids;
    p.space_dims := v_spaces.dims;
    p.space_names := coalesce(p_spaces, '{}');
    p.space_weights := coalesce(p_space_weights, '{}');
    p.vectors := coalesce(p_vectors, '{}');
    p.space_kinds := array_fill('dense'::text, ARRAY[cardinality(p.space_ids)]);
    p.space_metrics := array_fill('cosine'::text, ARRAY[cardinality(p.space_ids)]);
    p.sparse := array_fill(NULL::sparsevec, ARRAY[cardinality(p.space_ids)]);
    p.tokens := '{}';
    p.token_spaces := '{}';
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
    p.keyword_only := p.w_lex > 0 AND p.w_cos = 0;
    p.bm25_k1 := (v_options -> 'bm25' ->> 'k1')::float8;
    p.bm25_b := (v_options -> 'bm25' ->> 'b')::float8;
    p.query := CASE WHEN p.w_lex > 0 THEN p_query END;
    IF coalesce((v_options ->> 'exact')::boolean, false) THEN
        p.strategy := 'scan';
    END IF;
    IF p.fusion NOT IN ('weighted', 'rrf') THEN
        PERFORM api.raise_bad_argument('fusion must be weighted or rrf');
    END IF;
    IF p.strategy NOT IN ('auto', 'scan', 'threshold') THEN
        PERFORM api.raise_bad_argument('strategy must be auto, scan or threshold');
    END IF;
    IF NOT p.ef_search BETWEEN 1 AND 1000 OR NOT p.rrf_k BETWEEN 1 AND 100000
       OR NOT p.rrf_window BETWEEN 1 AND 10000 OR p.max_per_source < 0 OR p.row_from < 0 THEN
        PERFORM api.raise_bad_argument('ef_search must be 1..1000, rrf_k 1..100000, '
                                       'rrf_window 1..10000, max_per_source and offset >= 0');
    END IF;
    p.filter := jsonb_populate_record(NULL::api.search_filter, coalesce(p_filters, '{}'));
    p.filter.collection_id := p.collection_id;
    p.filtered := coalesce(p_filters, '{}') - 'collection_id' <> '{}';
    RETURN p;
END
$$;

-- The most similar any chunk can be in a space: 1 by cosine (and MaxSim, a mean of
-- cosines); by inner product, the product of two of the longest vectors accepted
-- (app/vectors.py: lengths up to 1e9).
CREATE FUNCTION api.max_similarity(p_metric text)
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT CASE p_metric WHEN 'cosine' THEN 1 ELSE 1e18 END $$;

-- The semantic part's bound for chunks not read: per searched space, the most similar an
-- unread chunk can be there (p_bounds, NULL: nothing was read there), weighted; at least
-- 0 per space, as an unread chunk may have no vector in it.
CREATE FUNCTION api.sem_bound(p api.search_plan, p_bounds float8[])
RETURNS float8
LANGUAGE sql IMMUTABLE
AS $$
    SELECT coalesce(sum(w * least(api.max_similarity(m),
                                  greatest(0, coalesce(b, api.max_similarity(m))))), 0)
    FROM unnest(p.space_weights, p_bounds, p.space_metrics) AS u(w, b, m)
    WHERE w > 0
$$;
