-- The parts of a split collection (sql/schema/0016_split_collections.sql), each searched
-- under the plan made for the whole collection, whose keyword statistics it carries
-- (summed over the parts, app/search/parts.py): each part scores its chunks as the whole
-- collection would. The entries are called once per part in one statement over the
-- parts' rows of rag.collection_counts: on Citus that statement runs on every worker
-- holding a part at once, and each call runs beside its part's data.

-- The plan for one part.
CREATE FUNCTION api.plan_for(p api.search_plan, p_collection integer)
RETURNS api.search_plan
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    v_filter api.search_filter := p.filter;
BEGIN
    v_filter.collection_id := p_collection;
    p.filter := v_filter;
    p.collection_id := p_collection;
    RETURN p;
END
$$;

-- A part's top rows (from the first) and what happened, as api.topk returns them.
CREATE FUNCTION api.topk_part(p_collection integer, p api.search_plan)
RETURNS json
LANGUAGE plpgsql
AS $$
BEGIN
    RETURN api.topk(p_collection, api.plan_for(p, p_collection));
END
$$;

-- Reciprocal rank fusion, which ranks each component over the whole collection, in two
-- steps (three with several weighted spaces, read from their indexes: first each part's
-- nearest in each space, which the service merges into the collection's, whose union the
-- semantic window ranks, as on one node). Then each part's windows (api.rrf_windows,
-- with each chunk's chunk_id and the value it is ranked by): the service merges them
-- into the collection's windows, by value and chunk_id, and numbers them.
CREATE FUNCTION api.rrf_part_nearest(p_collection integer, p api.search_plan)
RETURNS json
LANGUAGE plpgsql
SET hnsw.iterative_scan = 'strict_order'
SET plan_cache_mode = 'force_generic_plan'
AS $$
DECLARE
    v_nearest json[] := '{}';
    v_stream record;
BEGIN
    PERFORM set_config('plan_cache_mode', api.search_plans_mode(), true);
    p := api.plan_for(p, p_collection);
    PERFORM set_config('hnsw.ef_search', p.ef_search::text, true);
    FOR i IN 1 .. cardinality(p.space_ids) LOOP
        CONTINUE WHEN p.space_weights[i] = 0;
        v_stream := api.space_nearest(p.space_ids[i], p, i, p.rrf_window);
        v_nearest := v_nearest || json_build_object(
            'ids', v_stream.ids, 'sims', v_stream.sims,
            'chunk_ids', ARRAY(SELECT c.chunk_id FROM unnest(v_stream.ids) WITH ORDINALITY AS u(id, n)
                               JOIN rag.chunks c ON c.id = u.id AND c.collection_id = p.collection_id
                                                AND c.id = ANY (v_stream.ids)
                               ORDER BY u.n));
    END LOOP;
    RETURN to_json(v_nearest);
END
$$;

CREATE FUNCTION api.rrf_part_windows(
    p_collection integer, p api.search_plan, p_sem_candidates bigint[]
) RETURNS json
LANGUAGE plpgsql
SET hnsw.iterative_scan = 'strict_order'
SET plan_cache_mode = 'force_generic_plan'
AS $$
DECLARE
    v_started timestamptz := clock_timestamp();
    v_lex record;
    v_windows record;
BEGIN
    PERFORM set_config('plan_cache_mode', api.search_plans_mode(), true);
    p := api.with_keywords(api.plan_for(p, p_collection));
    PERFORM set_config('hnsw.ef_search', p.ef_search::text, true);
    v_lex := api.lex_matches(p);
    v_windows := api.rrf_windows(p, v_lex.ids, v_lex.scores, p_sem_candidates);
    RETURN json_build_object(
        'components', v_windows.components, 'ids', v_windows.ids, 'keys', v_windows.keys,
        'chunk_ids', ARRAY(SELECT c.chunk_id
                           FROM unnest(v_windows.ids) WITH ORDINALITY AS u(id, n)
                           JOIN rag.chunks c ON c.id = u.id AND c.collection_id = p.collection_id
                                            AND c.id = ANY (v_windows.ids)
                           ORDER BY u.n),
        'approximate', v_windows.approximate,
        'keyword_matches', CASE WHEN p.w_lex > 0 THEN cardinality(v_lex.ids) END,
        'search_time_ms', api.elapsed_ms(v_started));
END
$$;

-- Then each part's fused top rows from the ranks in the collection's windows (of every
-- part: api.rrf_fuse keeps its own chunks).
CREATE FUNCTION api.rrf_part_topk(
    p_collection integer, p api.search_plan, p_components text[], p_ids bigint[],
    p_ranks integer[]
) RETURNS json
LANGUAGE plpgsql
SET plan_cache_mode = 'force_generic_plan'
AS $$
DECLARE
    v_started timestamptz := clock_timestamp();
    v_lex record;
    v_found record;
BEGIN
    PERFORM set_config('plan_cache_mode', api.search_plans_mode(), true);
    p := api.with_keywords(api.plan_for(p, p_collection));
    v_lex := api.lex_matches(p);
    v_found := api.rrf_fuse(p, v_lex.ids, p_components, p_ids, p_ranks);
    RETURN json_build_object(
        'rows', api.result_rows(p, v_found.ids, v_lex.ids, v_lex.scores, v_found.fused,
                                v_found.ranks),
        'candidates', v_found.candidates,
        'search_time_ms', api.elapsed_ms(v_started));
END
$$;

-- How many chunks of a collection outrank a score p_score (of chunk p_chunk_id) under
-- plan p: the rank of a chunk of a split collection is 1 + those of its own part and
-- those of every other part (app/search/parts.py).
CREATE FUNCTION api.outranking(
    p_collection integer, p api.search_plan, p_score float8, p_chunk_id text
) RETURNS bigint
LANGUAGE plpgsql
SET plan_cache_mode = 'force_generic_plan'
AS $$
DECLARE
    v_lex record;
BEGIN
    PERFORM set_config('plan_cache_mode', api.search_plans_mode(), true);
    p := api.with_keywords(p);
    v_lex := api.lex_matches(p);
    RETURN api.rank_of(p, v_lex.ids, v_lex.scores, p_score, p_chunk_id) - 1;
END
$$;

