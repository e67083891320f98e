-- Explanations: one chunk under a search's scoring, and how far it is from the top-k.

-- Where a chunk ranks for a search: 1 + the eligible chunks passing the filter that score
-- higher (or the same, with a lower chunk_id). A scan: costs what an exact search costs.
-- The chunk is never counted against itself: its score here and p_score (from the rows'
-- function) may sum the same terms in another order, and differ in the last bit.
CREATE FUNCTION api.rank_of(p api.search_plan, p_lex_ids bigint[], p_lex_scores float8[],
                            p_score float8, p_chunk_id text)
RETURNS bigint
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_vectors boolean := p.w_cos > 0 OR p.min_similarity IS NOT NULL;
    v_sem text := CASE WHEN v_vectors THEN api.sem_sql(p, '$6') ELSE '0' END;
    v_from text := CASE WHEN p.keyword_only
                        THEN 'unnest($2, $3) AS lx(id, lex) JOIN rag.chunks c ON c.id = lx.id'
                        ELSE 'rag.chunks c LEFT JOIN unnest($2, $3) AS lx(id, lex) ON lx.id = c.id'
                   END || CASE WHEN v_vectors THEN api.vector_joins_sql(p) ELSE '' END;
    v_rank bigint;
BEGIN
    EXECUTE format(
        'SELECT count(*) + 1 FROM (
             SELECT c.chunk_id,
                    api.eligible_score($1, %s, s.sem, lx.id IS NOT NULL) AS score
             FROM %s CROSS JOIN LATERAL (SELECT %s AS sem) s
             WHERE %s) x
         WHERE x.chunk_id <> $5 AND (x.score > $4 OR (x.score = $4 AND x.chunk_id < $5))',
        api.score_sql(p, 's.sem', 'lx.lex'), v_from, v_sem, api.filter_sql(p.filter, '($1).filter'))
    INTO v_rank USING p, p_lex_ids, p_lex_scores, p_score, p_chunk_id, p.vectors;
    RETURN v_rank;
END
$$;

-- Why a chunk is (not) in the results: the filters it fails (and of a metadata filter,
-- which of its conditions, given one by one as labels and paths), its score and parts,
-- and its rank, under plan p.
CREATE FUNCTION api.explain(
    p_collection integer, p api.search_plan, p_chunk_id text,
    p_conditions text[] DEFAULT '{}', p_condition_paths jsonpath[] DEFAULT '{}'
) RETURNS jsonb
LANGUAGE plpgsql
SET plan_cache_mode = 'force_generic_plan'
AS $$
DECLARE
    c rag.chunks;
    v_filtered boolean := p.filtered;
    v_lex record;
    v_failed text[];
    v_conditions text[] := '{}';
    v_row json;
    v_matched boolean;
    v_eligible float8;
    v_rank bigint;
BEGIN
    PERFORM set_config('plan_cache_mode', api.search_plans_mode(), true);
    SELECT * INTO c FROM rag.chunks
    WHERE chunk_id = p_chunk_id AND collection_id = p.collection_id;
    IF NOT FOUND THEN
        PERFORM api.raise_not_found(format('no chunk with chunk_id %s', quote_literal(p_chunk_id)),
                                    jsonb_build_object('chunk_id', p_chunk_id));
    END IF;
    p := api.with_keywords(p);
    -- keyword matches over the whole collection: the chunk's lex even when filtered out
    p.filtered := false;
    v_lex := api.lex_matches(p);
    p.filtered := v_filtered;
    v_failed := api.failed_filters(p.filter, c);
    IF 'filter' = ANY (v_failed) THEN
        v_conditions := ARRAY(
            SELECT u.label FROM unnest(p_conditions, p_condition_paths) WITH ORDINALITY AS u(label, path, n)
            WHERE NOT coalesce(api.chunk_meta(c) @@ u.path, false) ORDER BY u.n);
    END IF;
    v_row := api.result_rows(p, ARRAY[c.id], v_lex.ids, v_lex.scores) -> 0;
    v_matched := c.id = ANY (v_lex.ids);
    v_eligible := api.eligible_score(p, (v_row ->> 'score')::float8, (v_row ->> 'sem')::float8,
                                     v_matched);
    -- min_score is reported as its own stage, not as ineligibility
    IF v_eligible IS NULL AND p.min_score IS NOT NULL THEN
        p.min_score := NULL;
        v_eligible := api.eligible_score(p, (v_row ->> 'score')::float8,
                                         (v_row ->> 'sem')::float8, v_matched);
    END IF;
    IF cardinality(v_failed) = 0 AND v_eligible IS NOT NULL AND p.fusion = 'weighted' THEN
        v_rank := api.rank_of(p, v_lex.ids, v_lex.scores, v_eligible, p_chunk_id);
    END IF;
    RETURN jsonb_build_object(
        'chunk_id', p_chunk_id, 'score', (v_row ->> 'score')::float8,
        'eligible_score', v_eligible,
        'sem', (v_row ->> 'sem')::float8, 'lex', coalesce((v_row ->> 'lex')::float8, 0),
        'rec', (v_row ->> 'rec')::float8, 'sig', (v_row ->> 'sig')::float8,
        'sims', (v_row -> 'sims')::jsonb,
        'source', api.source_key(c.src, c.doc_id),
        'failed_filters', to_jsonb(v_failed),
        'failed_conditions', to_jsonb(v_conditions),
        'rank', v_rank);
END
$$;

-- The cosine similarity of chunks to a goal's vector in one space (NULL: no vector).
CREATE FUNCTION api.goal_alignment(p_goal text, p_space text, p_chunk_ids text[],
                                   p_collection_id integer)
RETURNS TABLE (chunk_id text, alignment float8)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_space rag.spaces;
    v_goal vector;
BEGIN
    SELECT s.* INTO v_space FROM rag.spaces s WHERE s.name = p_space;
    SELECT g.embedding INTO v_goal FROM rag.goals g
    WHERE g.name = p_goal AND g.space_id = v_space.id;
    RETURN QUERY EXECUTE format(
        'SELECT c.chunk_id, 1 - (v.embedding <=> $1)
         FROM rag.chunks c LEFT JOIN rag.%I v ON v.chunk_pk = c.id AND v.collection_id = $3
         WHERE c.chunk_id = ANY ($2) AND c.collection_id = $3', api.vector_table(v_space.id))
    USING v_goal, p_chunk_ids, p_collection_id;
END
$$;
