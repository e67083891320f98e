-- Explanations: one chunk under a search's scoring, and how far it is from the top-k.

-- The filters a chunk fails, each checked on its own; for a metadata filter, also the
-- conditions of it that the chunk fails (each condition alone).
CREATE FUNCTION api.failed_filters(p api.search_plan, p_filters jsonb, p_id bigint,
                                   OUT filters text[], OUT conditions text[])
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_key text;
    v_one api.search_filter;
    v_passes boolean;
    c rag.chunks;
BEGIN
    filters := '{}';
    conditions := '{}';
    SELECT * INTO c FROM rag.chunks WHERE id = p_id AND collection_id = p.collection_id;
    FOR v_key IN SELECT jsonb_object_keys(coalesce(p_filters, '{}')) LOOP
        v_one := api.make_filter(p.collection_id, jsonb_build_object(v_key, p_filters -> v_key));
        IF NOT api.passes(v_one, c.doc_id, c.src, c.tags, c.created_at, c.meta) THEN
            filters := filters || v_key;
        END IF;
    END LOOP;
    IF 'filter' = ANY (filters) THEN
        conditions := ARRAY(
            SELECT m.condition FROM api.metadata_conditions(p_filters -> 'filter') m
            WHERE NOT coalesce(c.meta @@ m.path, false));
    END IF;
END
$$;

-- Where a chunk ranks for a search: 1 + the eligible chunks passing the filter that score
-- higher (or the same, with a lower chunk_id). A scan: costs what an exact search costs.
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
         WHERE x.score > $4 OR (x.score = $4 AND x.chunk_id < $5)',
        api.score_sql(p, 's.sem', 'lx.lex'), v_from, v_sem, api.filter_sql(p.filter, '($1).filter'))
    INTO v_rank USING p, p_lex_ids, p_lex_scores, p_score, p_chunk_id, p.vectors;
    RETURN v_rank;
END
$$;

-- Why a chunk is (not) in the results: the filters it fails, its score and parts, and
-- its rank. Same arguments as api.rag_topk_weighted plus p_chunk_id.
CREATE FUNCTION api.explain_chunk(
    p_vectors vector[],
    p_spaces text[],
    p_space_weights float8[],
    p_w_cos float8,
    p_w_rec float8,
    p_w_sig float8,
    p_filters jsonb,
    p_options jsonb,
    p_chunk_id text,
    p_w_lex float8 DEFAULT 0,
    p_query text DEFAULT NULL,
    p_collection text DEFAULT 'default'
) RETURNS jsonb
LANGUAGE plpgsql
AS $$
DECLARE
    p api.search_plan;
    v_id bigint;
    v_lex record;
    v_failed record;
    v_row json;
    v_matched boolean;
    v_eligible float8;
    v_rank bigint;
BEGIN
    p := api.search_plan(p_vectors, p_spaces, p_space_weights, 1, p_w_cos, p_w_rec, p_w_sig,
                         p_filters, p_options, p_w_lex, p_query, p_collection);
    SELECT id INTO v_id FROM rag.chunks
    WHERE chunk_id = p_chunk_id AND collection_id = p.collection_id;
    IF v_id IS NULL THEN
        PERFORM api.raise_not_found(format('no chunk with chunk_id %s', quote_literal(p_chunk_id)),
                                    jsonb_build_object('chunk_id', p_chunk_id));
    END IF;
    -- keyword matches over the whole collection: the chunk's lex even when filtered out
    p.filtered := false;
    v_lex := api.lex_matches(p);
    p.filtered := coalesce(p_filters, '{}') <> '{}';
    v_failed := api.failed_filters(p, p_filters, v_id);
    v_row := api.result_rows(p, ARRAY[v_id], v_lex.ids, v_lex.scores) -> 0;
    v_matched := v_id = ANY (v_lex.ids);
    v_eligible := api.eligible_score(p, (v_row ->> 'score')::float8, (v_row ->> 'sem')::float8,
                                     v_matched);
    -- min_score is reported as its own stage, not as ineligibility
    IF v_eligible IS NULL AND p.min_score IS NOT NULL THEN
        p.min_score := NULL;
        v_eligible := api.eligible_score(p, (v_row ->> 'score')::float8,
                                         (v_row ->> 'sem')::float8, v_matched);
    END IF;
    IF cardinality(v_failed.filters) = 0 AND v_eligible IS NOT NULL AND p.fusion = 'weighted' THEN
        v_rank := api.rank_of(p, v_lex.ids, v_lex.scores, v_eligible, p_chunk_id);
    END IF;
    RETURN jsonb_build_object(
        'chunk_id', p_chunk_id, 'score', (v_row ->> 'score')::float8,
        'eligible_score', v_eligible,
        'sem', (v_row ->> 'sem')::float8, 'lex', coalesce((v_row ->> 'lex')::float8, 0),
        'rec', (v_row ->> 'rec')::float8, 'sig', (v_row ->> 'sig')::float8,
        'sims', (v_row -> 'sims')::jsonb,
        'source', (SELECT api.source_key(src, doc_id) FROM rag.chunks
                   WHERE id = v_id AND collection_id = p.collection_id),
        'failed_filters', to_jsonb(v_failed.filters),
        'failed_conditions', to_jsonb(v_failed.conditions),
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
