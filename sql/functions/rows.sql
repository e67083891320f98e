-- The response rows of a ranking: each chunk with its score and every component, computed
-- by the ranking rule's own functions (score.sql), best first. As json, not jsonb:
-- numbers go out as float8 text, without a conversion to numeric each.
--
-- A row: chunk_id, doc_id, src, title, chunk, model, score, cos_dist and l2_dist (in the first
-- searched space), scale, days_old, created_at, sem, lex, rec, sig, sims (per searched
-- space, NULL where the chunk has no vector), tags, metadata; with fusion rrf, score is
-- the fused score and "ranks" gives the chunk's rank in each component's ranking.

-- Per searched space, the similarity of each id (aligned), as (space index, position,
-- similarity) triples; and the Euclidean distance in the first space.
CREATE FUNCTION api.result_sims(p api.search_plan, p_ids bigint[],
                                OUT spaces integer[], OUT positions integer[],
                                OUT sims float8[], OUT l2 float8[])
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_measures record;
BEGIN
    spaces := '{}';
    positions := '{}';
    sims := '{}';
    FOR i IN 1 .. cardinality(p.space_ids) LOOP
        v_measures := api.space_measures(p.space_ids[i], p, i, p_ids);
        spaces := spaces || array_fill(i, ARRAY[cardinality(p_ids)]);
        positions := positions || ARRAY(SELECT generate_series(1, cardinality(p_ids)));
        sims := sims || v_measures.sims;
        IF i = 1 THEN
            l2 := v_measures.l2;
        END IF;
    END LOOP;
END
$$;

CREATE FUNCTION api.result_rows(
    p api.search_plan, p_ids bigint[], p_lex_ids bigint[], p_lex_scores float8[],
    p_fused float8[] DEFAULT NULL, p_ranks jsonb[] DEFAULT NULL
) RETURNS json
LANGUAGE plpgsql STABLE
SET enable_seqscan = off SET enable_bitmapscan = off SET enable_mergejoin = off
AS $$
DECLARE
    v_sims record;
    v_rows json;
    v_lex_ids bigint[] := '{}';
    v_lex_scores float8[] := '{}';
BEGIN
    IF coalesce(cardinality(p_ids), 0) = 0 THEN
        RETURN '[]'::json;
    END IF;
    v_sims := api.result_sims(p, p_ids);
    IF coalesce(cardinality(p_lex_ids), 0) > 0 THEN
        -- the keyword scores of these rows alone: the matches can be the whole collection,
        -- and joined with the rows they were read once per row (or all hashed) for ten
        SELECT coalesce(array_agg(l.id), '{}'), coalesce(array_agg(l.lex), '{}')
        INTO v_lex_ids, v_lex_scores
        FROM unnest(p_lex_ids, p_lex_scores) AS l(id, lex)
        WHERE l.id = ANY (p_ids);
    END IF;
    SELECT coalesce(json_agg(json_build_object(
               'chunk_id', c.chunk_id, 'doc_id', c.doc_id, 'src', c.src, 'title', c.title,
               'chunk', c.chunk, 'model', c.model, 'source', api.source_key(c.src, c.doc_id),
               'score', coalesce(u.fused, api.score(p, coalesce(s.sem, 0), lx.lex, c.created_at, c.signal)),
               'cos_dist', 1 - s.first_sim, 'l2_dist', v_sims.l2[u.n], 'scale', c.scale,
               'days_old', api.days_old(p.now_epoch, c.created_at), 'created_at', c.created_at,
               'sem', coalesce(s.sem, 0), 'lex', CASE WHEN p.w_lex > 0 THEN coalesce(lx.lex, 0) END,
               'rec', api.rec(p, c.created_at), 'sig', c.signal::float8, 'sims', coalesce(s.sims, '{}'),
               'tags', c.tags, 'metadata', c.metadata, 'ranks', u.ranks)
             ORDER BY u.n), '[]'::json)
    INTO v_rows
    FROM unnest(p_ids, p_fused, p_ranks) WITH ORDINALITY AS u(id, fused, ranks, n)
    JOIN rag.chunks c ON c.id = u.id AND c.collection_id = p.collection_id
                     AND c.id = ANY (p_ids)  -- whatever the join, a look-up (entry.sql)
    LEFT JOIN unnest(v_lex_ids, v_lex_scores) AS lx(id, lex) ON lx.id = u.id
    LEFT JOIN (
        SELECT t.pos, coalesce(sum(p.space_weights[t.space] * coalesce(t.sim, 0)), 0) AS sem,
               array_agg(t.sim ORDER BY t.space) AS sims,
               min(t.sim) FILTER (WHERE t.space = 1) AS first_sim
        FROM unnest(v_sims.spaces, v_sims.positions, v_sims.sims) AS t(space, pos, sim)
        GROUP BY t.pos) s ON s.pos = u.n;
    RETURN v_rows;
END
$$;
