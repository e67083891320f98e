-- Explanations: one chunk under a search's scoring, and how far it is from the top-k.

-- Why a chunk is (not) in the results: which filters it fails, its score and parts, and
-- its rank among the chunks that pass every filter and rule (1 = best; a scan: costs
-- what an exact search costs). Same arguments as api.rag_topk_weighted plus p_chunk_id.
CREATE OR REPLACE FUNCTION api.explain_chunk(
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
    p_query text DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
AS $$
DECLARE
    v_options jsonb := coalesce(p_options, '{}');
    v_filters jsonb := coalesce(p_filters, '{}');
    v_now float8 := date_part('epoch', coalesce((v_options ->> 'as_of')::timestamptz, now()));
    v_sql record;
    v_plain record;  -- the same scoring without the min_similarity rule
    v_args jsonb;
    v_numbers float8[];
    v_id bigint;
    v_failed text[] := '{}';
    v_key text;
    v_one record;
    v_passes boolean;
    v_part jsonb;
    v_rank bigint;
    v_lex record;
BEGIN
    SELECT id INTO v_id FROM rag.chunks WHERE chunk_id = p_chunk_id;
    IF v_id IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'RG404',
            MESSAGE = format('no chunk with chunk_id "%s"', p_chunk_id),
            DETAIL = jsonb_build_object('chunk_id', p_chunk_id)::text;
    END IF;
    v_sql := api.search_sql(p_vectors, p_spaces, p_space_weights, p_w_cos, p_w_rec, p_w_sig,
                            v_filters, v_options, p_w_lex);
    -- The same score without the eligibility rules. A w_cos of 1 only keeps the
    -- keyword-only rule out of the text; the score's weights come from v_numbers.
    v_plain := api.search_sql(p_vectors, p_spaces, p_space_weights, 1, p_w_rec, p_w_sig,
                              v_filters, v_options - 'min_similarity', p_w_lex);
    v_args := api.search_args(v_filters, v_options);
    v_numbers := api.search_numbers(p_w_cos, p_w_rec, p_w_sig, v_sql.rec_scale, v_now,
                                    coalesce(p_space_weights, '{}'), p_w_lex);
    v_lex := api.lex_matches(CASE WHEN p_w_lex > 0 THEN p_query END, 'true', v_args,
                             v_options -> 'bm25');
    -- Each filter on its own, to name the ones the chunk fails.
    FOR v_key IN SELECT jsonb_object_keys(v_filters) LOOP
        v_one := api.search_sql(p_vectors, p_spaces, p_space_weights, p_w_cos, p_w_rec, p_w_sig,
                                jsonb_build_object(v_key, v_filters -> v_key), '{}');
        EXECUTE format('SELECT %s FROM rag.chunks c WHERE c.id = $3[1]', v_one.filter)
        INTO v_passes
        USING p_vectors, v_args, ARRAY[v_id];
        IF NOT v_passes THEN
            v_failed := v_failed || v_key;
        END IF;
    END LOOP;
    EXECUTE format(
        'SELECT jsonb_build_object(''score'', %s, ''eligible_score'', %s, ''sem'', %s,
                ''lex'', %s, ''rec'', %s, ''sig'', c.signal::float8, ''sims'', %s,
                ''source'', %s)
         FROM rag.chunks c %s %s WHERE c.id = $3[1]',
        v_plain.score, v_sql.score, v_sql.sem, v_sql.lex, v_sql.rec, v_sql.sims,
        v_sql.source, v_sql.joins, v_sql.lex_join)
    INTO v_part
    USING p_vectors, v_args, ARRAY[v_id], NULL::text[], NULL::float8[], NULL::box[],
          NULL::float8, NULL::bigint[], v_numbers, v_lex.ids, v_lex.scores;
    IF cardinality(v_failed) = 0 AND v_part ->> 'eligible_score' IS NOT NULL THEN
        EXECUTE format(
            'SELECT count(*) + 1 FROM rag.chunks c %s %s
             WHERE %s AND (%s > $7 OR (%s = $7 AND c.chunk_id < $4[1]))',
            v_sql.joins, v_sql.lex_join, v_sql.filter, v_sql.score, v_sql.score)
        INTO v_rank
        USING p_vectors, v_args, NULL::bigint[], ARRAY[p_chunk_id], NULL::float8[],
              NULL::box[], (v_part ->> 'score')::float8, NULL::bigint[], v_numbers,
              v_lex.ids, v_lex.scores;
    END IF;
    RETURN v_part || jsonb_build_object('chunk_id', p_chunk_id, 'failed_filters',
                                        to_jsonb(v_failed), 'rank', v_rank);
END
$$;

-- The cosine similarity of chunks to a goal's vector in one space (NULL: no vector).
CREATE OR REPLACE FUNCTION api.goal_alignment(p_goal text, p_space text, p_chunk_ids text[])
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
         FROM rag.chunks c LEFT JOIN rag.%I v ON v.chunk_pk = c.id
         WHERE c.chunk_id = ANY($2)', api.vector_table(v_space.id))
    USING v_goal, p_chunk_ids;
END
$$;
