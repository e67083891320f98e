CREATE OR REPLACE FUNCTION api.space_N_measures(p api.search_plan, p_space integer, p_ids bigint[], OUT sims double precision[], OUT l2 double precision[])
 RETURNS record
 LANGUAGE plpgsql
 STABLE
 SET enable_hashjoin TO 'off'
 SET enable_mergejoin TO 'off'
 SET enable_seqscan TO 'off'
AS $function$
DECLARE
    v_q vector := p.vectors[p_space];
BEGIN
    SELECT array_agg((1 - (v.embedding <=> v_q))::float8 ORDER BY u.n),
           array_agg((v.embedding <-> v_q)::float8 ORDER BY u.n)
    INTO sims, l2
    FROM unnest(p_ids) WITH ORDINALITY AS u(id, n)
    LEFT JOIN rag.vectors_N v ON v.chunk_pk = u.id AND v.collection_id = p.collection_id
                         AND v.chunk_pk = ANY (p_ids);
END
$function$

CREATE OR REPLACE FUNCTION api.space_N_nearest(p api.search_plan, p_space integer, p_depth integer, OUT ids bigint[], OUT sims double precision[], OUT bound double precision)
 RETURNS record
 LANGUAGE plpgsql
 STABLE
 SET enable_sort TO 'off'
 SET enable_bitmapscan TO 'off'
 SET enable_seqscan TO 'off'
AS $function$
DECLARE
    v_q vector := p.vectors[p_space];
    v_qh halfvec(8) := l2_normalize(v_q)::halfvec(8);
    v_filter api.search_filter := p.filter;
    v_far float8;
BEGIN
    SELECT coalesce(array_agg(n.id ORDER BY n.rank), '{}'),
           coalesce(array_agg(n.sim ORDER BY n.rank), '{}'), max(n.dist)
    INTO ids, sims, v_far
    FROM (SELECT v.chunk_pk AS id, (1 - (v.embedding <=> v_q))::float8 AS sim,
                 v.dist, row_number() OVER () AS rank
          FROM (SELECT v.chunk_pk, v.embedding, l2_normalize(v.embedding)::halfvec(8) <=> v_qh AS dist FROM rag.vectors_N v
                WHERE v.collection_id = p.collection_id
                  -- a subquery per vector the walk returns: one primary-key lookup each,
                  -- where a join's generic plan may materialize every chunk that passes
                  -- and compare each pair
                  AND (NOT p.filtered OR (SELECT api.passes(v_filter, c, (SELECT d.metadata FROM rag.documents d
                                                WHERE d.id = c.document_id
                                                  AND d.collection_id = c.collection_id))
                    FROM rag.chunks c
                    WHERE c.id = v.chunk_pk AND c.collection_id = v.collection_id))
                ORDER BY 3 LIMIT p_depth) v) n;
    bound := api.walk_bound(p, cardinality(ids), p_depth, 1,
                            1 - v_far + api.ann_distance_error(8));
END
$function$

CREATE OR REPLACE FUNCTION api.space_N_region(p api.search_plan, p_space integer, p_boxes box[], p_sigma double precision, p_theta double precision, p_lex_ids bigint[], p_lex_scores double precision[], p_limit integer, OUT ids bigint[], OUT sims double precision[], OUT region integer)
 RETURNS record
 LANGUAGE plpgsql
 STABLE
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET enable_mergejoin TO 'off'
AS $function$
DECLARE
    v_q vector := p.vectors[p_space];
    v_w float8 := p.space_weights[p_space];
    v_ids bigint[];
    v_created timestamptz[];
    v_signals real[];
    -- the plan's fields read per row, each a parameter of its own (as in region_chunks)
    v_collection integer := p.collection_id;
    v_w_cos float8 := p.w_cos;
    v_w_lex float8 := p.w_lex;
    v_w_rec float8 := p.w_rec;
    v_w_sig float8 := p.w_sig;
    v_rec_function text := p.rec_function;
    v_rec_scale float8 := p.rec_scale;
    v_now float8 := p.now_epoch;
BEGIN
    ids := '{}';
    sims := '{}';
    SELECT * INTO v_ids, v_created, v_signals
    FROM api.region_chunks(p, p_boxes, p_sigma, p_limit);
    region := cardinality(v_ids);
    IF region = 0 OR region >= p_limit THEN
        RETURN;
    END IF;
    -- their whole scores, keeping those that reach theta (a chunk on a box edge may come
    -- twice: the caller keeps one)
    SELECT coalesce(array_agg(x.id), '{}'), coalesce(array_agg(x.sim), '{}')
    INTO ids, sims
    FROM (SELECT r.id, v.sim, r.created_at, r.signal
          FROM unnest(v_ids, v_created, v_signals) AS r(id, created_at, signal)
          LEFT JOIN (SELECT v.chunk_pk, (1 - (v.embedding <=> v_q))::float8 AS sim
                     FROM rag.vectors_N v
                     WHERE v.chunk_pk = ANY (v_ids)
                       AND v.collection_id = v_collection) v ON v.chunk_pk = r.id
          OFFSET 0) x
    LEFT JOIN unnest(p_lex_ids, p_lex_scores) AS lx(id, lex) ON lx.id = x.id
    WHERE api.score_terms(v_w_cos, v_w_lex, v_w_rec, v_w_sig, v_rec_function, v_rec_scale,
                          v_now, v_w * coalesce(x.sim, 0), lx.lex, x.created_at, x.signal)
          >= p_theta;
END
$function$

CREATE OR REPLACE FUNCTION api.space_N_sample(p api.search_plan, p_space integer, p_read bigint[], p_bound double precision, OUT sampled integer, OUT beyond integer, OUT best double precision)
 RETURNS record
 LANGUAGE plpgsql
 STABLE
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET enable_sort TO 'off'
 SET "hnsw.iterative_scan" TO 'strict_order'
 SET "hnsw.ef_search" TO '40'
 SET "hnsw.max_scan_tuples" TO '2000000000'
AS $function$
DECLARE
    v_q vector := p.vectors[p_space];
    v_qh halfvec(8) := l2_normalize(v_q)::halfvec(8);
    v_reach float8 := p_bound - api.ann_distance_error(8);
    v_filter api.search_filter := p.filter;
    r record;
BEGIN
    -- the sample's own graph (the planner's choice for its predicate) walked in order
    -- until no sampled chunk it would still return can be nearer than the bound, not cut
    -- short by max_scan_tuples; a chunk past the bound that the walk did not read and
    -- that passes the filter proves the walk wrong, and a few of them are proof enough
    sampled := 0;
    beyond := 0;
    FOR r IN SELECT v.chunk_pk, (1 - (v.embedding <=> v_q))::float8 AS sim, v.dist
             FROM (SELECT v.chunk_pk, v.embedding, l2_normalize(v.embedding)::halfvec(8) <=> v_qh AS dist FROM rag.vectors_N v
                   WHERE v.collection_id = p.collection_id AND v.chunk_pk % 100 = 0
                   ORDER BY 3) v LOOP
        EXIT WHEN 1 - r.dist < v_reach;
        sampled := sampled + 1;
        CONTINUE WHEN r.sim <= p_bound OR r.chunk_pk = ANY (p_read);
        CONTINUE WHEN p.filtered
                      AND NOT coalesce((SELECT (SELECT api.passes(v_filter, c, (SELECT d.metadata FROM rag.documents d
                                                WHERE d.id = c.document_id
                                                  AND d.collection_id = c.collection_id))
                    FROM rag.chunks c
                    WHERE c.id = v.chunk_pk AND c.collection_id = v.collection_id) FROM (SELECT r.chunk_pk, p.collection_id)
                                                         AS v(chunk_pk, collection_id)), false);
        beyond := beyond + 1;
        best := greatest(best, r.sim);
        EXIT WHEN beyond >= 8;
    END LOOP;
END
$function$

CREATE OR REPLACE FUNCTION api.space_N_score(p api.search_plan, p_space integer, p_ids bigint[], p_known_ids bigint[], p_known_sims double precision[], p_lex_ids bigint[], p_lex_scores double precision[], OUT ids bigint[], OUT chunk_ids text[], OUT sources text[], OUT scores double precision[])
 RETURNS record
 LANGUAGE plpgsql
 STABLE
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
 SET enable_mergejoin TO 'off'
AS $function$
DECLARE
    v_q vector := p.vectors[p_space];
    v_w float8 := p.space_weights[p_space];
    -- the plan's fields read per row, each a parameter of its own (as in region_chunks)
    v_collection integer := p.collection_id;
    v_w_cos float8 := p.w_cos;
    v_w_lex float8 := p.w_lex;
    v_w_rec float8 := p.w_rec;
    v_w_sig float8 := p.w_sig;
    v_rec_function text := p.rec_function;
    v_rec_scale float8 := p.rec_scale;
    v_now float8 := p.now_epoch;
    v_min_similarity float8 := p.min_similarity;
    v_keyword_only boolean := p.keyword_only;
    v_min_score float8 := p.min_score;
BEGIN
    SELECT coalesce(array_agg(x.id), '{}'), coalesce(array_agg(x.chunk_id), '{}'),
           coalesce(array_agg(x.source), '{}'), coalesce(array_agg(x.score), '{}')
    INTO ids, chunk_ids, sources, scores
    FROM (SELECT s.id, s.chunk_id, s.source,
                 api.eligible_terms(v_min_similarity, v_keyword_only, v_min_score, s.score,
                                    s.sem, s.matched) AS score
          FROM (SELECT c.id, c.chunk_id, api.source_key(c.src, c.doc_id) AS source,
                       api.score_terms(v_w_cos, v_w_lex, v_w_rec, v_w_sig, v_rec_function,
                                       v_rec_scale, v_now, m.sem, lx.lex, c.created_at,
                                       c.signal) AS score,
                       m.sem, lx.id IS NOT NULL AS matched
                FROM rag.chunks c
                LEFT JOIN unnest(p_known_ids, p_known_sims) AS k(id, sim) ON k.id = c.id
                CROSS JOIN LATERAL (
                    SELECT v_w * coalesce(k.sim, (
                        SELECT (1 - (v.embedding <=> v_q))::float8 FROM rag.vectors_N v
                        WHERE v.chunk_pk = c.id AND v.collection_id = v_collection),
                        0) AS sem) m
                LEFT JOIN unnest(p_lex_ids, p_lex_scores) AS lx(id, lex) ON lx.id = c.id
                -- the ids (distinct) looked up by key whatever the plan (entry.sql); not
                -- joined with them: that join's estimate (a row) made the joins above loops
                WHERE c.id = ANY (p_ids) AND c.collection_id = v_collection
                OFFSET 0) s) x;  -- OFFSET 0: the score is computed once, then checked
END
$function$

CREATE OR REPLACE FUNCTION api.space_N_sims(p api.search_plan, p_space integer, p_ids bigint[], p_known_ids bigint[] DEFAULT '{}'::bigint[], p_known_sims double precision[] DEFAULT '{}'::double precision[])
 RETURNS double precision[]
 LANGUAGE plpgsql
 STABLE
 SET enable_mergejoin TO 'off'
 SET enable_seqscan TO 'off'
AS $function$
DECLARE
    v_q vector := p.vectors[p_space];
BEGIN
    IF coalesce(cardinality(p_ids), 0) = 0 THEN
        RETURN '{}';
    END IF;
    RETURN ARRAY(
        SELECT coalesce(k.sim, (SELECT (1 - (v.embedding <=> v_q))::float8 FROM rag.vectors_N v
                                WHERE v.chunk_pk = u.id AND v.collection_id = p.collection_id))
        FROM unnest(p_ids) WITH ORDINALITY AS u(id, n)
        LEFT JOIN unnest(p_known_ids, p_known_sims) AS k(id, sim) ON k.id = u.id
        ORDER BY u.n);
END
$function$

CREATE OR REPLACE FUNCTION api.space_N_walk(p api.search_plan, p_space integer)
 RETURNS refcursor
 LANGUAGE plpgsql
 STABLE
 SET enable_sort TO 'off'
 SET enable_bitmapscan TO 'off'
 SET enable_seqscan TO 'off'
AS $function$
DECLARE
    v_q vector := p.vectors[p_space];
    v_qh halfvec(8) := l2_normalize(v_q)::halfvec(8);
    v_filter api.search_filter := p.filter;
    v_walk refcursor;
BEGIN
    OPEN v_walk NO SCROLL FOR
        SELECT v.chunk_pk, (1 - (v.embedding <=> v_q))::float8, v.dist
        FROM (SELECT v.chunk_pk, v.embedding, l2_normalize(v.embedding)::halfvec(8) <=> v_qh AS dist FROM rag.vectors_N v
              WHERE v.collection_id = p.collection_id
                AND (NOT p.filtered  -- as in nearest
                     OR (SELECT api.passes(v_filter, c, (SELECT d.metadata FROM rag.documents d
                                                WHERE d.id = c.document_id
                                                  AND d.collection_id = c.collection_id))
                    FROM rag.chunks c
                    WHERE c.id = v.chunk_pk AND c.collection_id = v.collection_id))
              ORDER BY 3) v;
    RETURN v_walk;
END
$function$
