-- The entry point: api.rag_topk_weighted, the one function the service (and any SQL
-- client) calls for a weighted top-k.
--
--   p_vectors, p_spaces, p_space_weights   one query vector per searched space
--   p_k                                    how many ranked chunks (the page's end)
--   p_w_cos, p_w_rec, p_w_sig, p_w_lex     the blend weights (the caller normalises them)
--   p_filters                              doc_ids, src_prefix, tags_any, tags_all,
--                                          created_after, created_before, filter
--   p_options                              the knobs of api.search_defaults(), recency,
--                                          as_of, min_score, min_similarity, exact, offset
--                                          (rows are returned from that rank on)
--   p_query                                the query text (for lex)
--   p_collection                           the collection's name
--
-- Returns {"rows": [...] (038_rows.sql), "meta": {strategy, strategy_reason, exact,
-- approximate_streams, fell_back, depth, rounds, candidates_scanned, keyword_matches,
-- filtered_rows, search_time_ms, timings_ms}}. "exact" is true only when the rows are
-- guaranteed to be the full scan's: strategy scan, or a threshold search that trusted no
-- index order (no semantic part); otherwise "approximate_streams" names the spaces whose
-- HNSW order the bound relied on.
--
-- Every statement inside runs from a generic plan, planned once per connection: the plans
-- do not depend on the values (partitions are pruned when the statement starts; the
-- statements that need an index pin it), and re-planning them per search would cost more
-- than most searches.

CREATE FUNCTION api.elapsed_ms(p_since timestamptz)
RETURNS numeric
LANGUAGE sql VOLATILE
AS $$ SELECT round((extract(epoch FROM clock_timestamp() - p_since) * 1000)::numeric, 3) $$;

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
SET hnsw.iterative_scan = 'strict_order'
SET plan_cache_mode = 'force_generic_plan'
AS $$
DECLARE
    v_started timestamptz := clock_timestamp();
    v_clock timestamptz := v_started;
    v_timings jsonb := '{}';
    p api.search_plan;
    v_offset integer := coalesce((p_options ->> 'offset')::integer, 0);
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
    v_rows json;
BEGIN
    p := api.search_plan(p_vectors, p_spaces, p_space_weights, p_k, p_w_cos, p_w_rec, p_w_sig,
                         p_filters, p_options, p_w_lex, p_query, p_collection);
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
            v_candidates := v_found.candidates;
            v_depth := v_found.depth;
            v_rounds := v_found.rounds;
            IF v_found.closed THEN
                v_ids := v_found.ids;
                v_approximate := v_found.approximate;
            ELSE
                v_strategy := 'scan';  -- the bound did not close within its budget
                v_fell_back := true;
                v_reason := 'the threshold bound did not close within its budget';
            END IF;
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
