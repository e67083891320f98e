CREATE OR REPLACE FUNCTION api.space_N_maxsim(p_tokens vector[], p_collection integer, p_id bigint)
 RETURNS double precision
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
 SET enable_seqscan TO 'off'
AS $function$
BEGIN
    -- for each query token its best cosine over the chunk's tokens, averaged; NULL: the
    -- chunk has no tokens here
    RETURN (SELECT avg(t.best)
            FROM (SELECT max(1 - (v.embedding <=> q.token)) AS best
                  FROM unnest(p_tokens) WITH ORDINALITY AS q(token, n)
                  JOIN rag.vectors_N v ON v.chunk_pk = p_id AND v.collection_id = p_collection
                  GROUP BY q.n) t);
END
$function$

CREATE OR REPLACE FUNCTION api.space_N_measures(p api.search_plan, p_space integer, p_ids bigint[], OUT sims double precision[], OUT l2 double precision[])
 RETURNS record
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
    sims := api.space_N_sims(p, p_space, p_ids);
    l2 := array_fill(NULL::float8, ARRAY[cardinality(p_ids)]);
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
    v_tokens vector[] := api.plan_tokens(p, p_space);
    v_count integer := greatest(cardinality(v_tokens), 1);
    v_qh halfvec(8);
    v_filter api.search_filter := p.filter;
    v_walk record;
    v_chunks bigint[] := '{}';  -- (chunk, query token, similarity) of each token read
    v_query_tokens integer[] := '{}';
    v_sims float8[] := '{}';
    v_bounds float8[] := '{}';  -- per query token: the walk's bound
    v_filled float8[];
    v_ranked record;
BEGIN
    -- one walk per query token: its nearest tokens, with their exact similarities
    FOR t IN 1 .. cardinality(v_tokens) LOOP
        v_qh := l2_normalize(v_tokens[t])::halfvec(8);
        SELECT coalesce(array_agg(w.chunk_pk), '{}') AS ids,
               coalesce(array_agg((1 - (w.embedding <=> v_tokens[t]))::float8), '{}') AS sims,
               count(*)::integer AS read, max(w.dist) AS far
        INTO v_walk
        FROM (SELECT v.chunk_pk, v.embedding, l2_normalize(v.embedding)::halfvec(8) <=> v_qh AS dist FROM rag.vectors_N v
              WHERE v.collection_id = p.collection_id AND (NOT p.filtered OR (SELECT api.passes(v_filter, c, (SELECT d.metadata FROM rag.documents d
                                                WHERE d.id = c.document_id
                                                  AND d.collection_id = c.collection_id))
                    FROM rag.chunks c
                    WHERE c.id = v.chunk_pk AND c.collection_id = v.collection_id))
              ORDER BY 3 LIMIT p_depth) w;
        v_chunks := v_chunks || v_walk.ids;
        v_query_tokens := v_query_tokens || array_fill(t, ARRAY[cardinality(v_walk.ids)]);
        v_sims := v_sims || v_walk.sims;
        v_bounds := v_bounds || api.walk_bound(p, v_walk.read, p_depth, 16,
                                               1 - v_walk.far + api.ann_distance_error(8));
    END LOOP;
    -- A chunk read in some walks has a MaxSim of at most the mean over query tokens of its
    -- best similarity read for it (its best token, or one within the walk's bound: walks
    -- read nearest first) or, where no token of it came, that walk's bound; one read in
    -- none, at most the mean bound. (A walk that gave up counts 1 here; the bound is NULL.)
    v_filled := ARRAY(SELECT coalesce(b, 1) FROM unnest(v_bounds) AS b);
    -- Only the p_depth chunks of highest bound are scored exactly; the others' bound joins
    -- the bound of the chunks not returned.
    SELECT coalesce(array_agg(r.chunk ORDER BY r.upper DESC, r.chunk)
                    FILTER (WHERE r.nth <= p_depth), '{}') AS ids,
           max(r.upper) FILTER (WHERE r.nth > p_depth) AS rest
    INTO v_ranked
    FROM (SELECT b.chunk, b.upper, row_number() OVER (ORDER BY b.upper DESC, b.chunk) AS nth
          FROM (SELECT x.chunk,
                       (api.sum_of(v_filled) + sum(greatest(x.best - v_filled[x.t], 0)))
                       / v_count AS upper
                FROM (SELECT u.chunk, u.t, max(u.sim) AS best
                      FROM unnest(v_chunks, v_query_tokens, v_sims) AS u(chunk, t, sim)
                      GROUP BY u.chunk, u.t) x
                GROUP BY x.chunk) b) r;
    bound := greatest(api.sum_of(v_bounds) / v_count, v_ranked.rest);
    IF array_position(v_bounds, NULL) IS NOT NULL THEN
        bound := NULL;  -- a walk gave up: no bound
    END IF;
    ids := v_ranked.ids;
    sims := api.space_N_sims(p, p_space, ids);
    -- nearest first
    SELECT coalesce(array_agg(u.id ORDER BY u.sim DESC, u.id), '{}'),
           coalesce(array_agg(u.sim ORDER BY u.sim DESC, u.id), '{}')
    INTO ids, sims FROM unnest(ids, sims) AS u(id, sim);
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
    v_tokens vector[] := api.plan_tokens(p, p_space);
    v_unknown bigint[];
BEGIN
    IF coalesce(cardinality(p_ids), 0) = 0 THEN
        RETURN '{}';
    END IF;
    v_unknown := ARRAY(SELECT unnest(p_ids) EXCEPT SELECT unnest(p_known_ids));
    -- MaxSim of every chunk not known, in one statement: for each query token its best
    -- cosine over the chunk's tokens, averaged (NULL: the chunk has no tokens here)
    RETURN ARRAY(
        SELECT coalesce(k.sim, m.sim)
        FROM unnest(p_ids) WITH ORDINALITY AS u(id, n)
        LEFT JOIN unnest(p_known_ids, p_known_sims) AS k(id, sim) ON k.id = u.id
        LEFT JOIN (SELECT x.chunk_pk, avg(x.best) AS sim
                   FROM (SELECT v.chunk_pk, q.n, max(1 - (v.embedding <=> q.token)) AS best
                         FROM rag.vectors_N v
                         CROSS JOIN unnest(v_tokens) WITH ORDINALITY AS q(token, n)
                         WHERE v.chunk_pk = ANY (v_unknown)
                           AND v.collection_id = p.collection_id
                         GROUP BY v.chunk_pk, q.n) x
                   GROUP BY x.chunk_pk) m ON m.chunk_pk = u.id
        ORDER BY u.n);
END
$function$
