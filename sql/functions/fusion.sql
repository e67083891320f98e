-- Fusion "rrf": weighted reciprocal rank fusion of the rankings by each weighted
-- component, instead of the weighted sum of their values:
--
--   rrf(c) = sum over components r of  w_r / (rrf_k + rank_r(c))
--
-- r in {sem (w_cos), lex (w_lex), rec (w_rec), sig (w_sig)}; rank_r(c) is c's 1-based rank
-- by that component among the chunks passing the filter (ties by chunk_id), counted
-- within the first rrf_window of each ranking (beyond it, c gets nothing from r). The
-- semantic ranking comes from each space's HNSW walk (rrf_window deep; with strategy
-- scan, from an exact scan), keyword from every match, recency and signal from their
-- indexes. Eligibility (min_similarity, keyword-only, min_score on the fused score) and
-- max_per_source apply as for the weighted blend.

-- The semantic ranking's window: the ids by sem, best first, with their sem. With
-- several spaces, it ranks the union of each space's nearest rrf_window; p_candidates
-- gives that union instead (a split collection's, read over all its parts).
CREATE FUNCTION api.rank_semantic(
    p api.search_plan, p_candidates bigint[] DEFAULT NULL,
    OUT ids bigint[], OUT keys float8[], OUT approximate text[]
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_window integer := p.rrf_window;
    v_read bigint[] := '{}';
    v_scored record;
    v_best integer[];
BEGIN
    approximate := '{}';
    ids := '{}';
    keys := '{}';
    IF p.w_cos = 0 OR cardinality(p.space_ids) = 0 THEN
        RETURN;
    END IF;
    IF p.strategy = 'scan' THEN
        EXECUTE format('SELECT coalesce(array_agg(id ORDER BY n), ''{}''),
                               coalesce(array_agg(sem ORDER BY n), ''{}'')
                        FROM (SELECT c.id, %3$s AS sem,
                                     row_number() OVER (ORDER BY %3$s DESC, c.chunk_id) AS n
                              FROM rag.chunks c %1$s WHERE %2$s
                              ORDER BY %3$s DESC, c.chunk_id LIMIT %4$s) s',
                       api.vector_joins_sql(p), api.filter_sql(p.filter, '($1).filter'),
                       api.sem_sql(p, '$2'), v_window)
        INTO ids, keys USING p, p.vectors;
        RETURN;
    END IF;
    FOR i IN 1 .. cardinality(p.space_ids) LOOP
        CONTINUE WHEN p.space_weights[i] = 0;
        IF p_candidates IS NULL THEN
            v_read := v_read || (api.space_nearest(p.space_ids[i], p, i, v_window)).ids;
        END IF;
        approximate := approximate || p.space_names[i];
    END LOOP;
    v_read := ARRAY(SELECT DISTINCT unnest(coalesce(p_candidates, v_read)));
    -- rank the union by the whole semantic part (a plan without the other components)
    p.w_cos := 1; p.w_lex := 0; p.w_rec := 0; p.w_sig := 0;
    p.min_score := NULL; p.min_similarity := NULL; p.keyword_only := false;
    p.max_per_source := 0;
    v_scored := api.score_ids(p, v_read, '{}', '{}', '{}', '{}', '{}');
    v_best := api.best_positions(p, v_scored.scores, v_scored.chunk_ids, v_scored.sources,
                                 v_window);
    ids := ARRAY(SELECT v_scored.ids[n] FROM unnest(v_best) AS n);
    keys := ARRAY(SELECT v_scored.scores[n] FROM unnest(v_best) AS n);
END
$$;

-- A component's ranking window from an index on rag.chunks (created_at or signal), with
-- the value each is ranked by (created_at as microseconds since the epoch: exact in a
-- float8).
CREATE FUNCTION api.rank_static(
    p api.search_plan, p_by text, OUT ids bigint[], OUT keys float8[]
)
LANGUAGE plpgsql STABLE
SET enable_seqscan = off SET enable_bitmapscan = off SET enable_sort = off
AS $$
DECLARE
    v_filter api.search_filter := p.filter;  -- a parameter of its own: read once per row
BEGIN
    IF p_by = 'created_at' THEN
        SELECT coalesce(array_agg(w.id ORDER BY w.n), '{}'),
               coalesce(array_agg(w.key ORDER BY w.n), '{}')
        INTO ids, keys
        FROM (SELECT c.id, (extract(epoch FROM c.created_at) * 1000000)::float8 AS key,
                     row_number() OVER (ORDER BY c.created_at DESC, c.chunk_id) AS n
              FROM rag.chunks c
              WHERE c.collection_id = p.collection_id
                AND (NOT p.filtered
                     OR api.passes(v_filter, c, (SELECT d.metadata FROM rag.documents d WHERE d.id = c.document_id AND d.collection_id = c.collection_id)))
              ORDER BY c.created_at DESC, c.chunk_id LIMIT p.rrf_window) w;
        RETURN;
    END IF;
    SELECT coalesce(array_agg(w.id ORDER BY w.n), '{}'),
           coalesce(array_agg(w.key ORDER BY w.n), '{}')
    INTO ids, keys
    FROM (SELECT c.id, c.signal::float8 AS key,
                 row_number() OVER (ORDER BY c.signal DESC, c.chunk_id) AS n
          FROM rag.chunks c
          WHERE c.collection_id = p.collection_id
            AND (NOT p.filtered
                 OR api.passes(v_filter, c, (SELECT d.metadata FROM rag.documents d WHERE d.id = c.document_id AND d.collection_id = c.collection_id)))
          ORDER BY c.signal DESC, c.chunk_id LIMIT p.rrf_window) w;
END
$$;

-- Each weighted component's ranking window, best first: the components, the ids, each
-- one's rank in its window and the value it is ranked by (its key), in parallel arrays
-- (p_sem_candidates: see api.rank_semantic).
CREATE FUNCTION api.rrf_windows(
    p api.search_plan, p_lex_ids bigint[], p_lex_scores float8[],
    p_sem_candidates bigint[] DEFAULT NULL,
    OUT components text[], OUT ids bigint[], OUT ranks integer[], OUT keys float8[],
    OUT approximate text[]
)
LANGUAGE plpgsql STABLE
SET enable_seqscan = off SET enable_bitmapscan = off SET enable_mergejoin = off
AS $$
DECLARE
    v_sem record := api.rank_semantic(p, p_sem_candidates);
    v_window record;
BEGIN
    approximate := v_sem.approximate;
    components := array_fill('sem'::text, ARRAY[cardinality(v_sem.ids)]);
    ids := v_sem.ids;
    keys := v_sem.keys;
    IF p.w_lex > 0 THEN
        SELECT coalesce(array_agg(w.id ORDER BY w.n), '{}') AS ids,
               coalesce(array_agg(w.lex ORDER BY w.n), '{}') AS keys
        INTO v_window
        FROM (SELECT l.id, l.lex, row_number() OVER (ORDER BY l.lex DESC, c.chunk_id) AS n
              FROM unnest(p_lex_ids, p_lex_scores) AS l(id, lex)
              JOIN rag.chunks c ON c.id = l.id AND c.collection_id = p.collection_id
                               AND c.id = ANY (p_lex_ids)  -- the matches, not the collection
              ORDER BY l.lex DESC, c.chunk_id LIMIT p.rrf_window) w;
        components := components || array_fill('lex'::text, ARRAY[cardinality(v_window.ids)]);
        ids := ids || v_window.ids;
        keys := keys || v_window.keys;
    END IF;
    IF p.w_rec > 0 THEN
        v_window := api.rank_static(p, 'created_at');
        components := components || array_fill('rec'::text, ARRAY[cardinality(v_window.ids)]);
        ids := ids || v_window.ids;
        keys := keys || v_window.keys;
    END IF;
    IF p.w_sig > 0 THEN
        v_window := api.rank_static(p, 'signal');
        components := components || array_fill('sig'::text, ARRAY[cardinality(v_window.ids)]);
        ids := ids || v_window.ids;
        keys := keys || v_window.keys;
    END IF;
    ranks := ARRAY(SELECT row_number() OVER (PARTITION BY u.component ORDER BY u.n)::integer
                   FROM unnest(components) WITH ORDINALITY AS u(component, n) ORDER BY u.n);
END
$$;

-- The fused top-k from ranks in each component's window (p_components, p_ids, p_ranks in
-- parallel: the chunks of other collections are left out), with the eligibility rules.
CREATE FUNCTION api.rrf_fuse(
    p api.search_plan, p_lex_ids bigint[], p_components text[], p_ids bigint[],
    p_ranks integer[],
    OUT ids bigint[], OUT fused float8[], OUT ranks jsonb[], OUT candidates bigint
)
LANGUAGE plpgsql STABLE
SET enable_seqscan = off SET enable_bitmapscan = off SET enable_mergejoin = off
AS $$
DECLARE
    v_ids bigint[];
    v_fused float8[];
    v_ranks jsonb[];
    v_chunk_ids text[];
    v_sources text[];
    v_sem_plan api.search_plan := p;
    v_sem_ids bigint[] := '{}';
    v_sem_values float8[] := '{}';
    v_scored record;
    v_best integer[];
BEGIN
    -- each candidate's fused score and ranks; then the eligibility rules
    SELECT coalesce(array_agg(f.id), '{}'), coalesce(array_agg(f.score), '{}'),
           coalesce(array_agg(f.ranks), '{}'), coalesce(array_agg(c.chunk_id), '{}'),
           coalesce(array_agg(api.source_key(c.src, c.doc_id)), '{}')
    INTO v_ids, v_fused, v_ranks, v_chunk_ids, v_sources
    FROM (SELECT r.id,
                 sum(CASE r.component WHEN 'sem' THEN p.w_cos WHEN 'lex' THEN p.w_lex
                                      WHEN 'rec' THEN p.w_rec ELSE p.w_sig END
                     / (p.rrf_k + r.rank)) AS score,
                 jsonb_object_agg(r.component, r.rank) AS ranks
          FROM unnest(p_components, p_ids, p_ranks) AS r(component, id, rank)
          GROUP BY r.id) f
    JOIN rag.chunks c ON c.id = f.id AND c.collection_id = p.collection_id
                     AND c.id = ANY (p_ids);  -- whatever the join, a look-up
    candidates := cardinality(v_ids);
    IF p.min_similarity IS NOT NULL THEN
        v_sem_plan.w_cos := 1; v_sem_plan.w_lex := 0; v_sem_plan.w_rec := 0;
        v_sem_plan.w_sig := 0; v_sem_plan.min_score := NULL; v_sem_plan.keyword_only := false;
        v_scored := api.score_ids(v_sem_plan, v_ids, '{}', '{}', '{}', '{}', '{}');
        v_sem_ids := v_scored.ids;
        v_sem_values := v_scored.scores;
    END IF;
    SELECT array_agg(CASE WHEN (NOT p.keyword_only OR u.id = ANY (p_lex_ids))
                           AND (p.min_score IS NULL OR u.s >= p.min_score)
                           AND (p.min_similarity IS NULL OR sm.s >= p.min_similarity)
                          THEN u.s END ORDER BY u.n)
    INTO v_fused
    FROM unnest(v_ids, v_fused) WITH ORDINALITY AS u(id, s, n)
    LEFT JOIN unnest(v_sem_ids, v_sem_values) AS sm(id, s) ON sm.id = u.id;
    v_best := api.best_positions(p, v_fused, v_chunk_ids, v_sources, p.k);
    ids := ARRAY(SELECT v_ids[n] FROM unnest(v_best) AS n);
    fused := ARRAY(SELECT v_fused[n] FROM unnest(v_best) AS n);
    ranks := ARRAY(SELECT v_ranks[n] FROM unnest(v_best) AS n);
END
$$;

CREATE FUNCTION api.topk_rrf(
    p api.search_plan, p_lex_ids bigint[], p_lex_scores float8[],
    OUT ids bigint[], OUT fused float8[], OUT ranks jsonb[], OUT candidates bigint,
    OUT approximate text[]
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_windows record := api.rrf_windows(p, p_lex_ids, p_lex_scores);
    v_found record;
BEGIN
    approximate := v_windows.approximate;
    v_found := api.rrf_fuse(p, p_lex_ids, v_windows.components, v_windows.ids,
                            v_windows.ranks);
    ids := v_found.ids;
    fused := v_found.fused;
    ranks := v_found.ranks;
    candidates := v_found.candidates;
END
$$;
