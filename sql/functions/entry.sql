-- The entry points of a weighted top-k:
--
--   api.topk(p_collection, p)   the service's: a plan built and checked in Python
--                               (app/search/plan.py), trusted; p_collection is the plan's
--                               collection, as an argument of its own so that a
--                               distributed database can route the call by it;
--   api.rag_topk_weighted(...)  a SQL client's: its arguments checked and planned by
--                               api.search_plan (search_plan.sql), then api.topk.
--
-- Both return {"rows": [...] (rows.sql), "meta": {strategy, strategy_reason, exact,
-- approximate_streams, fell_back, depth, rounds, candidates_scanned, keyword_matches,
-- filtered_rows, search_time_ms, timings_ms}}. "exact" is true only when the rows are
-- guaranteed to be the full scan's: strategy scan, or a threshold search that trusted no
-- index order (no semantic part); otherwise "approximate_streams" names the spaces whose
-- HNSW order the bound relied on. Rows start at rank p.row_from + 1.
--
-- While the database holds few collections, every statement inside runs from a generic
-- plan, planned once per connection: the plans do not depend on the values (partitions
-- are pruned when the statement starts; the statements that need an index pin it), and
-- re-planning them per search would cost more than most searches. But a generic plan
-- covers every collection's partition: it locks each of them every time it runs (a search
-- held 1,524 locks with 502 collections, and ten at once filled the server's lock table),
-- it is planned anew on every connection after any collection is created or dropped, and
-- its joins are costed over all the partitions (each empty one priced as an index probe
-- per chunk looked up, so that with many, the look-ups by key were planned as hash joins
-- over the whole searched collection: 20x slower at 500 collections). So a look-up by key
-- names its ids as "id = ANY (ids)" and reads only them whatever join is planned (where
-- it also joins the ids, the join is estimated at one row: a join after it must not
-- depend on that estimate); and past api.generic_plan_collections() collections each
-- statement is planned per call, for its own collection's partition only
-- (api.search_plans_mode).

-- How many collections (parts included) the search functions' statements are planned
-- once per connection for; past it, per call (docs/performance/many-collections.md).
CREATE FUNCTION api.generic_plan_collections()
RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT 32 $$;

-- The plan_cache_mode of a search's statements: generic plans while the database holds at
-- most api.generic_plan_collections() collections, a plan per call past it; the session
-- setting ragsearch.plans ('generic' or 'custom') overrides it (benchmarks compare them).
CREATE FUNCTION api.search_plans_mode()
RETURNS text
LANGUAGE sql STABLE
AS $$
    SELECT CASE current_setting('ragsearch.plans', true)
                WHEN 'generic' THEN 'force_generic_plan'
                WHEN 'custom' THEN 'force_custom_plan'
                ELSE CASE WHEN (SELECT count(*) FROM (SELECT FROM rag.collections
                                                      LIMIT api.generic_plan_collections() + 1) c)
                               > api.generic_plan_collections()
                          THEN 'force_custom_plan' ELSE 'force_generic_plan' END
           END
$$;

CREATE FUNCTION api.elapsed_ms(p_since timestamptz)
RETURNS numeric
LANGUAGE sql VOLATILE
AS $$ SELECT round((extract(epoch FROM clock_timestamp() - p_since) * 1000)::numeric, 3) $$;

CREATE FUNCTION api.topk(p_collection integer, p api.search_plan)
RETURNS json
LANGUAGE plpgsql
SET hnsw.iterative_scan = 'strict_order'
SET plan_cache_mode = 'force_generic_plan'
AS $$
DECLARE
    v_started timestamptz := clock_timestamp();
    v_clock timestamptz := v_started;
    v_timings jsonb := '{}';
    v_offset integer := p.row_from;
    v_lex record;
    v_choice record;
    v_found record;
    v_ids bigint[];
    v_fused float8[];
    v_ranks jsonb[];
    v_strategy text;
    v_reason text;
    v_filtered_rows float8;
    v_depth integer;
    v_rounds jsonb;
    v_candidates bigint := 0;
    v_approximate text[] := '{}';
    v_fell_back boolean := false;
    v_again text;  -- why the threshold search walked again, wider
    v_rows json;
BEGIN
    PERFORM set_config('plan_cache_mode', api.search_plans_mode(), true);
    p := api.with_keywords(p);
    PERFORM set_config('hnsw.ef_search', p.ef_search::text, true);
    v_timings := v_timings || jsonb_build_object('plan', api.elapsed_ms(v_clock));
    v_clock := clock_timestamp();
    v_lex := api.lex_matches(p);
    v_timings := v_timings || jsonb_build_object('keywords', api.elapsed_ms(v_clock));
    v_clock := clock_timestamp();

    IF p.fusion = 'rrf' THEN
        v_found := api.topk_rrf(p, v_lex.ids, v_lex.scores);
        v_strategy := 'rrf';
        v_reason := 'fusion rrf';
        v_ids := v_found.ids;
        v_fused := v_found.fused;
        v_ranks := v_found.ranks;
        v_candidates := v_found.candidates;
        v_approximate := v_found.approximate;
    ELSE
        v_choice := api.choose_strategy(p, cardinality(v_lex.ids));
        v_strategy := v_choice.strategy;
        v_reason := v_choice.reason;
        v_filtered_rows := v_choice.filtered_rows;
        v_timings := v_timings || jsonb_build_object('choose', api.elapsed_ms(v_clock));
        v_clock := clock_timestamp();
        IF v_strategy = 'threshold' THEN
            v_found := api.topk_threshold(p, v_lex.ids, v_lex.scores);
            IF v_found.unclosed IS NOT NULL AND p.ef_search < 1000 THEN
                -- the sample proved the walk wrong: a walk routed into the wrong part of
                -- the graph mostly finds its way with a longer candidate list, which
                -- costs a few ms where the scan costs the collection
                v_rounds := v_found.rounds;
                v_candidates := v_found.candidates;
                p.ef_search := least(4 * p.ef_search, 1000);
                v_again := format('walked again at ef_search %s, as %s', p.ef_search,
                                  v_found.unclosed);
                PERFORM set_config('hnsw.ef_search', p.ef_search::text, true);
                v_found := api.topk_threshold(p, v_lex.ids, v_lex.scores);
                v_found.rounds := v_rounds || v_found.rounds;
                v_found.candidates := v_candidates + v_found.candidates;
            END IF;
            v_candidates := v_found.candidates;
            v_depth := v_found.depth;
            v_rounds := v_found.rounds;
            IF v_found.closed THEN
                v_ids := v_found.ids;
                v_approximate := v_found.approximate;
            ELSE
                v_strategy := 'scan';  -- the bound did not close within its budget
                v_fell_back := true;
                v_reason := coalesce(v_found.unclosed,
                                     'the threshold bound did not close within its budget');
            END IF;
            v_reason := concat_ws('; ', v_reason, v_again);
        END IF;
        IF v_strategy = 'scan' THEN
            v_found := api.topk_scan(p, v_lex.ids, v_lex.scores);
            v_ids := v_found.ids;
            v_candidates := v_candidates + v_found.candidates;
        END IF;
    END IF;
    v_timings := v_timings || jsonb_build_object('rank', api.elapsed_ms(v_clock));
    v_clock := clock_timestamp();
    v_rows := api.result_rows(p, v_ids[v_offset + 1 :], v_lex.ids, v_lex.scores,
                              v_fused[v_offset + 1 :], v_ranks[v_offset + 1 :]);
    v_timings := v_timings || jsonb_build_object('rows', api.elapsed_ms(v_clock));
    RETURN json_build_object(
        'rows', v_rows,
        'meta', json_build_object(
            'strategy', v_strategy,
            'strategy_reason', v_reason,
            'exact', cardinality(v_approximate) = 0,
            'approximate_streams', to_json(v_approximate),
            'fell_back', v_fell_back,
            'depth', v_depth,
            'rounds', v_rounds,
            'candidates_scanned', v_candidates,
            'keyword_matches', CASE WHEN p.w_lex > 0 THEN cardinality(v_lex.ids) END,
            'filtered_rows', v_filtered_rows,
            'search_time_ms', api.elapsed_ms(v_started),
            'timings_ms', v_timings));
END
$$;

-- A SQL client's weighted top-k (the arguments are described at api.search_plan).
CREATE FUNCTION api.rag_topk_weighted(
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
    p_query text DEFAULT NULL,
    p_collection text DEFAULT 'default'
) RETURNS json
LANGUAGE plpgsql
AS $$
DECLARE
    p api.search_plan := api.search_plan(p_vectors, p_spaces, p_space_weights, p_k, p_w_cos,
                                         p_w_rec, p_w_sig, p_filters, p_options, p_w_lex,
                                         p_query, p_collection);
BEGIN
    RETURN api.topk(p.collection_id, p);
END
$$;

-- Plans the search functions' statements on the calling connection, as its first search
-- would (PL/pgSQL plans each statement once per connection: at 100k, a connection's first
-- 0.5/0.3/0.2 search took 49 ms at p50 cold against 19 ms warmed,
-- docs/performance/http-and-ingest.md): for each dense space, one threshold search by
-- the vector of one of its chunks, in that chunk's collection (the part itself where a
-- collection is split), with recency and signal weighted, its answer discarded. Returns
-- how many ran, and leaves that number in the session's setting ragsearch.warmed_plans
-- (what a pooled connection was given); a search that fails is passed over (what it
-- planned stays planned). On Citus nothing: a coordinator sends each search whole to a
-- worker, whose connection plans it. Nothing either past api.generic_plan_collections()
-- collections: searches are then planned per call, and there is no plan to keep.
CREATE FUNCTION api.warm_plans()
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    v_space record;
    v_collection integer;
    v_query vector;
    p api.search_plan;
    v_ran integer := 0;
BEGIN
    FOR v_space IN SELECT id, name FROM rag.spaces
                   WHERE kind = 'dense' AND NOT api.distributed()
                     AND api.search_plans_mode() = 'force_generic_plan' ORDER BY id LOOP
        BEGIN
            EXECUTE format('SELECT collection_id, embedding FROM rag.%I LIMIT 1',
                           api.vector_table(v_space.id))
            INTO v_collection, v_query;
            CONTINUE WHEN v_query IS NULL;  -- no vector to search by
            p := api.search_plan(
                ARRAY[v_query], ARRAY[v_space.name], ARRAY[1.0]::float8[], 10, 0.5, 0.3, 0.2,
                '{}', '{"strategy": "threshold"}', 0, NULL,
                (SELECT coalesce(w.name, c.name) FROM rag.collections c
                 LEFT JOIN rag.collections w ON w.id = c.part_of WHERE c.id = v_collection));
            p.collection_id := v_collection;
            p.filter.collection_id := v_collection;
            PERFORM api.topk(v_collection, p);
            v_ran := v_ran + 1;
        EXCEPTION WHEN OTHERS THEN
            NULL;
        END;
    END LOOP;
    PERFORM set_config('ragsearch.warmed_plans', v_ran::text, false);
    RETURN v_ran;
END
$$;
