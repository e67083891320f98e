CREATE OR REPLACE FUNCTION api.space_N_measures(p api.search_plan, p_space integer, p_ids bigint[], OUT sims double precision[], OUT l2 double precision[])
 RETURNS record
 LANGUAGE plpgsql
 STABLE
 SET enable_hashjoin TO 'off'
 SET enable_mergejoin TO 'off'
 SET enable_seqscan TO 'off'
AS $function$
DECLARE
    v_q sparsevec := p.sparse[p_space];
BEGIN
    SELECT array_agg((CASE WHEN false THEN 1 - (v.embedding <=> v_q)
                           ELSE -(v.embedding <#> v_q) END)::float8 ORDER BY u.n),
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
    v_q sparsevec := p.sparse[p_space];
    v_filter api.search_filter := p.filter;
    v_far float8;
    v_ids bigint[];
    v_sims float8[];
BEGIN
    -- the vectors the index holds, nearest first
    SELECT coalesce(array_agg(n.id ORDER BY n.rank), '{}'),
           coalesce(array_agg(n.sim ORDER BY n.rank), '{}'), max(n.dist)
    INTO ids, sims, v_far
    FROM (SELECT v.chunk_pk AS id,
                 (CASE WHEN false THEN 1 - v.dist ELSE -v.dist END)::float8 AS sim,
                 v.dist, row_number() OVER () AS rank
          FROM (SELECT v.chunk_pk, v.embedding <#> v_q AS dist FROM rag.vectors_N v
                WHERE v.collection_id = p.collection_id AND v.nnz <= 1000
                  AND (NOT p.filtered OR (SELECT api.passes(v_filter, c, (SELECT d.metadata FROM rag.documents d
                                                WHERE d.id = c.document_id
                                                  AND d.collection_id = c.collection_id))
                    FROM rag.chunks c
                    WHERE c.id = v.chunk_pk AND c.collection_id = v.collection_id))
                ORDER BY 2 LIMIT p_depth) v) n;
    -- the index computes the same float32 distances: 1e-6 covers their rounding
    bound := api.walk_bound(p, cardinality(ids), p_depth, 1,
                            CASE WHEN false THEN 1 - v_far ELSE -v_far END + 1e-6);
    -- the vectors the index cannot hold, every one
    SELECT coalesce(array_agg(v.chunk_pk), '{}'),
           coalesce(array_agg((CASE WHEN false THEN 1 - (v.embedding <=> v_q)
                                    ELSE -(v.embedding <#> v_q) END)::float8), '{}')
    INTO v_ids, v_sims
    FROM rag.vectors_N v
    WHERE v.collection_id = p.collection_id AND v.nnz > 1000
      AND (NOT p.filtered OR (SELECT api.passes(v_filter, c, (SELECT d.metadata FROM rag.documents d
                                                WHERE d.id = c.document_id
                                                  AND d.collection_id = c.collection_id))
                    FROM rag.chunks c
                    WHERE c.id = v.chunk_pk AND c.collection_id = v.collection_id));
    -- nearest first
    SELECT coalesce(array_agg(u.id ORDER BY u.sim DESC, u.id), '{}'),
           coalesce(array_agg(u.sim ORDER BY u.sim DESC, u.id), '{}')
    INTO ids, sims FROM unnest(ids || v_ids, sims || v_sims) AS u(id, sim);
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
    v_q sparsevec := p.sparse[p_space];
BEGIN
    IF coalesce(cardinality(p_ids), 0) = 0 THEN
        RETURN '{}';
    END IF;
    RETURN ARRAY(
        SELECT coalesce(k.sim, (SELECT (CASE WHEN false THEN 1 - (v.embedding <=> v_q)
                                             ELSE -(v.embedding <#> v_q) END)::float8
                                FROM rag.vectors_N v
                                WHERE v.chunk_pk = u.id AND v.collection_id = p.collection_id))
        FROM unnest(p_ids) WITH ORDINALITY AS u(id, n)
        LEFT JOIN unnest(p_known_ids, p_known_sims) AS k(id, sim) ON k.id = u.id
        ORDER BY u.n);
END
$function$
