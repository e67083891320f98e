-- Functions of each embedding space, generated with the space's table and dimensions
-- written in: a search's per-space statements are then static SQL, planned once per
-- connection (per call past api.generic_plan_collections() collections: entry.sql) and
-- run from PL/pgSQL's plan cache with binary parameters.
--
-- Each function is described once: its signature in api.space_function_signatures()
-- (one per function, the same for every kind of space, so that one dispatcher calls them
-- all) and its body for each kind of space that has it in api.space_function_bodies().
-- From these come the functions of every space (api.space_<id>_<name>,
-- api.create_space_functions), their removal (api.drop_space_functions) and the
-- dispatcher api.space_<name>(space id, ...) that calls the function of the space it is
-- given (space_dispatch.sql). In a body, {table} is the space's vector table, {dims} its
-- dimensions, {ann} the distance its HNSW index orders by between v.embedding and the
-- half-precision query v_qh (api.ann_order_sql), {passes} whether chunk v.chunk_pk passes
-- the plan's filter v_filter, {own} the prefix of the space's own functions, {sample}
-- the sample's predicate (api.sample_predicate), and for a sparse space {op} its
-- distance operator and {cosine} whether it scores by cosine.
-- Every function reads its query from the plan: p.vectors[p_space] (dense),
-- p.sparse[p_space] (sparse), api.plan_tokens(p, p_space) (multivector).
--
--   nearest(plan, space index, depth) -> (ids[], sims[], bound)
--       the chunks nearest the query, read from the HNSW index (iterative scan, strict
--       order: the caller sets hnsw.*) with the filter applied during the walk, nearest
--       first, with their exact similarities; bound: the most similar any chunk not
--       returned can be (NULL: the walk gave up before depth, so none can be given).
--       Dense: depth chunks. Sparse: depth of the indexed vectors, and every vector with
--       more non-zero entries than the index takes. Multivector: depth token vectors per
--       query token; a chunk none of whose tokens came can have a MaxSim of at most the
--       mean over query tokens of the walk's bound for each.
--   walk(plan, space index) -> refcursor
--       for a plan whose only weighted space this is: the walk of nearest as an open
--       cursor, read on by api.walk_fetch as the search goes deeper (the index scan
--       resumes where it stopped instead of starting again); rows (id, sim, dist), sim
--       and dist as in nearest;
--   region(plan, space index, boxes, sigma, theta, lex, limit) -> (ids[], sims[], region)
--       the chunks of the static region (api.region_chunks: static score >= sigma, from
--       the GiST index) whose whole score reaches theta, with their similarity: the
--       region read once and scored in one statement when this is the plan's only
--       weighted space. region: how many chunks the region holds, counted up to limit;
--       at limit nothing is scored (ids and sims empty).
--   score(plan, space index, ids, known_ids, known_sims, lex)
--       -> (ids[], chunk_ids[], sources[], scores[])
--       api.score_ids for a plan whose only weighted space this is, in one statement: the
--       chunks that exist, with their eligible scores (similarity from known_sims where
--       the walk read it, else from the vector);
--   sims(plan, space index, ids, known_ids, known_sims) -> float8[]
--       the similarity of each chunk id to the query, aligned with ids (NULL: no vector),
--       taken from known_sims where the id is among known_ids (read by the walk);
--   measures(plan, space index, ids) -> (sims float8[], l2 float8[])
--       the similarity and the Euclidean distance (none for multivector) of each id, for
--       response rows;
--   maxsim(tokens, collection, id) -> float8  (multivector)
--       one chunk's MaxSim, for the statements a scan writes.
--   sample(plan, space index, read, bound) -> (sampled, beyond, best)  (dense)
--       the walk's check (api.walk_missed): the chunks of the space's sample
--       (api.sample_predicate) walked in order through the sample's own index
--       (api.ensure_sample_indexes) while their index distance could still be nearer
--       than the bound, each scored exactly (sampled: how many); beyond: how many of them
--       pass the filter, were not returned by the walk (not in read) and are more similar
--       than its bound (the walk stops at the eighth); best: the highest similarity
--       among those.
-- walk, region and score exist for dense spaces only (the single-space fast path).
--
-- The planner is kept on the index paths (sorts, bitmaps, hashes and sequential scans
-- disabled inside them): on a collection loaded a moment ago there are no statistics yet,
-- and no other plan answers these statements better.

CREATE TYPE api.space_function_signature AS (
    name     text,
    params   text[],  -- "name type [DEFAULT value]", in order
    outs     text[],  -- "name type" of each OUT parameter (none: returns)
    returns  text
);

CREATE FUNCTION api.space_function_signatures()
RETURNS SETOF api.space_function_signature
LANGUAGE sql IMMUTABLE
AS $$
VALUES
('nearest', ARRAY['p api.search_plan', 'p_space integer', 'p_depth integer'],
 ARRAY['ids bigint[]', 'sims float8[]', 'bound float8'], NULL),
('walk', ARRAY['p api.search_plan', 'p_space integer'], '{}', 'refcursor'),
('region', ARRAY['p api.search_plan', 'p_space integer', 'p_boxes box[]', 'p_sigma float8',
                 'p_theta float8', 'p_lex_ids bigint[]', 'p_lex_scores float8[]',
                 'p_limit integer'],
 ARRAY['ids bigint[]', 'sims float8[]', 'region integer'], NULL),
('score', ARRAY['p api.search_plan', 'p_space integer', 'p_ids bigint[]',
                'p_known_ids bigint[]', 'p_known_sims float8[]', 'p_lex_ids bigint[]',
                'p_lex_scores float8[]'],
 ARRAY['ids bigint[]', 'chunk_ids text[]', 'sources text[]', 'scores float8[]'], NULL),
('sims', ARRAY['p api.search_plan', 'p_space integer', 'p_ids bigint[]',
               $d$p_known_ids bigint[] DEFAULT '{}'$d$,
               $d$p_known_sims float8[] DEFAULT '{}'$d$],
 '{}', 'float8[]'),
('measures', ARRAY['p api.search_plan', 'p_space integer', 'p_ids bigint[]'],
 ARRAY['sims float8[]', 'l2 float8[]'], NULL),
('maxsim', ARRAY['p_tokens vector[]', 'p_collection integer', 'p_id bigint'], '{}', 'float8'),
('sample', ARRAY['p api.search_plan', 'p_space integer', 'p_read bigint[]', 'p_bound float8'],
 ARRAY['sampled integer', 'beyond integer', 'best float8'], NULL)
$$;

CREATE TYPE api.space_function_body AS (
    name       text,
    space_kind text,
    options    text,  -- volatility, parallel safety and SET clauses
    body       text   -- PL/pgSQL, with the tokens above
);

-- The planner is kept on the index paths (sorts, bitmaps, hashes and sequential scans
-- disabled inside them): on a collection loaded a moment ago there are no statistics yet,
-- and no other plan answers these statements better.
CREATE FUNCTION api.space_function_bodies()
RETURNS SETOF api.space_function_body
LANGUAGE sql IMMUTABLE
AS $specs$
VALUES
('nearest', 'dense',
 'STABLE SET enable_sort = off SET enable_bitmapscan = off SET enable_seqscan = off',
 $body$
DECLARE
    v_q vector := p.vectors[p_space];
    v_qh halfvec({dims}) := l2_normalize(v_q)::halfvec({dims});
    v_filter api.search_filter := p.filter;
    v_far float8;
BEGIN
    SELECT coalesce(array_agg(n.id ORDER BY n.rank), '{}'),
           coalesce(array_agg(n.sim ORDER BY n.rank), '{}'), max(n.dist)
    INTO ids, sims, v_far
    FROM (SELECT v.chunk_pk AS id, (1 - (v.embedding <=> v_q))::float8 AS sim,
                 v.dist, row_number() OVER () AS rank
          FROM (SELECT v.chunk_pk, v.embedding, {ann} AS dist FROM {table} v
                WHERE v.collection_id = p.collection_id
                  -- a subquery per vector the walk returns: one primary-key lookup each,
                  -- where a join's generic plan may materialize every chunk that passes
                  -- and compare each pair
                  AND (NOT p.filtered OR {passes})
                ORDER BY 3 LIMIT p_depth) v) n;
    bound := api.walk_bound(p, cardinality(ids), p_depth, 1,
                            1 - v_far + api.ann_distance_error({dims}));
END
$body$),
('nearest', 'sparse',
 'STABLE SET enable_sort = off SET enable_bitmapscan = off SET enable_seqscan = off',
 $body$
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
                 (CASE WHEN {cosine} THEN 1 - v.dist ELSE -v.dist END)::float8 AS sim,
                 v.dist, row_number() OVER () AS rank
          FROM (SELECT v.chunk_pk, v.embedding {op} v_q AS dist FROM {table} v
                WHERE v.collection_id = p.collection_id AND v.nnz <= 1000
                  AND (NOT p.filtered OR {passes})
                ORDER BY 2 LIMIT p_depth) v) n;
    -- the index computes the same float32 distances: 1e-6 covers their rounding
    bound := api.walk_bound(p, cardinality(ids), p_depth, 1,
                            CASE WHEN {cosine} THEN 1 - v_far ELSE -v_far END + 1e-6);
    -- the vectors the index cannot hold, every one
    SELECT coalesce(array_agg(v.chunk_pk), '{}'),
           coalesce(array_agg((CASE WHEN {cosine} THEN 1 - (v.embedding <=> v_q)
                                    ELSE -(v.embedding <#> v_q) END)::float8), '{}')
    INTO v_ids, v_sims
    FROM {table} v
    WHERE v.collection_id = p.collection_id AND v.nnz > 1000
      AND (NOT p.filtered OR {passes});
    -- nearest first
    SELECT coalesce(array_agg(u.id ORDER BY u.sim DESC, u.id), '{}'),
           coalesce(array_agg(u.sim ORDER BY u.sim DESC, u.id), '{}')
    INTO ids, sims FROM unnest(ids || v_ids, sims || v_sims) AS u(id, sim);
END
$body$),
('nearest', 'multivector',
 'STABLE SET enable_sort = off SET enable_bitmapscan = off SET enable_seqscan = off',
 $body$
DECLARE
    v_tokens vector[] := api.plan_tokens(p, p_space);
    v_count integer := greatest(cardinality(v_tokens), 1);
    v_qh halfvec({dims});
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
        v_qh := l2_normalize(v_tokens[t])::halfvec({dims});
        SELECT coalesce(array_agg(w.chunk_pk), '{}') AS ids,
               coalesce(array_agg((1 - (w.embedding <=> v_tokens[t]))::float8), '{}') AS sims,
               count(*)::integer AS read, max(w.dist) AS far
        INTO v_walk
        FROM (SELECT v.chunk_pk, v.embedding, {ann} AS dist FROM {table} v
              WHERE v.collection_id = p.collection_id AND (NOT p.filtered OR {passes})
              ORDER BY 3 LIMIT p_depth) w;
        v_chunks := v_chunks || v_walk.ids;
        v_query_tokens := v_query_tokens || array_fill(t, ARRAY[cardinality(v_walk.ids)]);
        v_sims := v_sims || v_walk.sims;
        v_bounds := v_bounds || api.walk_bound(p, v_walk.read, p_depth, {max_tokens},
                                               1 - v_walk.far + api.ann_distance_error({dims}));
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
    sims := {own}sims(p, p_space, ids);
    -- nearest first
    SELECT coalesce(array_agg(u.id ORDER BY u.sim DESC, u.id), '{}'),
           coalesce(array_agg(u.sim ORDER BY u.sim DESC, u.id), '{}')
    INTO ids, sims FROM unnest(ids, sims) AS u(id, sim);
END
$body$),
('sample', 'dense',
 'STABLE SET enable_seqscan = off SET enable_bitmapscan = off SET enable_sort = off '
 'SET hnsw.iterative_scan = strict_order SET hnsw.ef_search = 40 '
 'SET hnsw.max_scan_tuples = 2000000000',
 $body$
DECLARE
    v_q vector := p.vectors[p_space];
    v_qh halfvec({dims}) := l2_normalize(v_q)::halfvec({dims});
    v_reach float8 := p_bound - api.ann_distance_error({dims});
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
             FROM (SELECT v.chunk_pk, v.embedding, {ann} AS dist FROM {table} v
                   WHERE v.collection_id = p.collection_id AND v.{sample}
                   ORDER BY 3) v LOOP
        EXIT WHEN 1 - r.dist < v_reach;
        sampled := sampled + 1;
        CONTINUE WHEN r.sim <= p_bound OR r.chunk_pk = ANY (p_read);
        CONTINUE WHEN p.filtered
                      AND NOT coalesce((SELECT {passes} FROM (SELECT r.chunk_pk, p.collection_id)
                                                         AS v(chunk_pk, collection_id)), false);
        beyond := beyond + 1;
        best := greatest(best, r.sim);
        EXIT WHEN beyond >= 8;
    END LOOP;
END
$body$),
('walk', 'dense',
 'STABLE SET enable_sort = off SET enable_bitmapscan = off SET enable_seqscan = off',
 $body$
DECLARE
    v_q vector := p.vectors[p_space];
    v_qh halfvec({dims}) := l2_normalize(v_q)::halfvec({dims});
    v_filter api.search_filter := p.filter;
    v_walk refcursor;
BEGIN
    OPEN v_walk NO SCROLL FOR
        SELECT v.chunk_pk, (1 - (v.embedding <=> v_q))::float8, v.dist
        FROM (SELECT v.chunk_pk, v.embedding, {ann} AS dist FROM {table} v
              WHERE v.collection_id = p.collection_id
                AND (NOT p.filtered  -- as in nearest
                     OR {passes})
              ORDER BY 3) v;
    RETURN v_walk;
END
$body$),
('region', 'dense',
 'STABLE SET enable_seqscan = off SET enable_bitmapscan = off SET enable_mergejoin = off',
 $body$
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
                     FROM {table} v
                     WHERE v.chunk_pk = ANY (v_ids)
                       AND v.collection_id = v_collection) v ON v.chunk_pk = r.id
          OFFSET 0) x
    LEFT JOIN unnest(p_lex_ids, p_lex_scores) AS lx(id, lex) ON lx.id = x.id
    WHERE api.score_terms(v_w_cos, v_w_lex, v_w_rec, v_w_sig, v_rec_function, v_rec_scale,
                          v_now, v_w * coalesce(x.sim, 0), lx.lex, x.created_at, x.signal)
          >= p_theta;
END
$body$),
('score', 'dense',
 'STABLE SET enable_seqscan = off SET enable_bitmapscan = off SET enable_mergejoin = off',
 $body$
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
                        SELECT (1 - (v.embedding <=> v_q))::float8 FROM {table} v
                        WHERE v.chunk_pk = c.id AND v.collection_id = v_collection),
                        0) AS sem) m
                LEFT JOIN unnest(p_lex_ids, p_lex_scores) AS lx(id, lex) ON lx.id = c.id
                -- the ids (distinct) looked up by key whatever the plan (entry.sql); not
                -- joined with them: that join's estimate (a row) made the joins above loops
                WHERE c.id = ANY (p_ids) AND c.collection_id = v_collection
                OFFSET 0) s) x;  -- OFFSET 0: the score is computed once, then checked
END
$body$),
('sims', 'dense', 'STABLE SET enable_mergejoin = off SET enable_seqscan = off',
 $body$
DECLARE
    v_q vector := p.vectors[p_space];
BEGIN
    IF coalesce(cardinality(p_ids), 0) = 0 THEN
        RETURN '{}';
    END IF;
    RETURN ARRAY(
        SELECT coalesce(k.sim, (SELECT (1 - (v.embedding <=> v_q))::float8 FROM {table} v
                                WHERE v.chunk_pk = u.id AND v.collection_id = p.collection_id))
        FROM unnest(p_ids) WITH ORDINALITY AS u(id, n)
        LEFT JOIN unnest(p_known_ids, p_known_sims) AS k(id, sim) ON k.id = u.id
        ORDER BY u.n);
END
$body$),
('sims', 'sparse', 'STABLE SET enable_mergejoin = off SET enable_seqscan = off',
 $body$
DECLARE
    v_q sparsevec := p.sparse[p_space];
BEGIN
    IF coalesce(cardinality(p_ids), 0) = 0 THEN
        RETURN '{}';
    END IF;
    RETURN ARRAY(
        SELECT coalesce(k.sim, (SELECT (CASE WHEN {cosine} THEN 1 - (v.embedding <=> v_q)
                                             ELSE -(v.embedding <#> v_q) END)::float8
                                FROM {table} v
                                WHERE v.chunk_pk = u.id AND v.collection_id = p.collection_id))
        FROM unnest(p_ids) WITH ORDINALITY AS u(id, n)
        LEFT JOIN unnest(p_known_ids, p_known_sims) AS k(id, sim) ON k.id = u.id
        ORDER BY u.n);
END
$body$),
('sims', 'multivector', 'STABLE SET enable_mergejoin = off SET enable_seqscan = off',
 $body$
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
                         FROM {table} v
                         CROSS JOIN unnest(v_tokens) WITH ORDINALITY AS q(token, n)
                         WHERE v.chunk_pk = ANY (v_unknown)
                           AND v.collection_id = p.collection_id
                         GROUP BY v.chunk_pk, q.n) x
                   GROUP BY x.chunk_pk) m ON m.chunk_pk = u.id
        ORDER BY u.n);
END
$body$),
('measures', 'dense',
 'STABLE SET enable_hashjoin = off SET enable_mergejoin = off SET enable_seqscan = off',
 $body$
DECLARE
    v_q vector := p.vectors[p_space];
BEGIN
    SELECT array_agg((1 - (v.embedding <=> v_q))::float8 ORDER BY u.n),
           array_agg((v.embedding <-> v_q)::float8 ORDER BY u.n)
    INTO sims, l2
    FROM unnest(p_ids) WITH ORDINALITY AS u(id, n)
    LEFT JOIN {table} v ON v.chunk_pk = u.id AND v.collection_id = p.collection_id
                         AND v.chunk_pk = ANY (p_ids);
END
$body$),
('measures', 'sparse',
 'STABLE SET enable_hashjoin = off SET enable_mergejoin = off SET enable_seqscan = off',
 $body$
DECLARE
    v_q sparsevec := p.sparse[p_space];
BEGIN
    SELECT array_agg((CASE WHEN {cosine} THEN 1 - (v.embedding <=> v_q)
                           ELSE -(v.embedding <#> v_q) END)::float8 ORDER BY u.n),
           array_agg((v.embedding <-> v_q)::float8 ORDER BY u.n)
    INTO sims, l2
    FROM unnest(p_ids) WITH ORDINALITY AS u(id, n)
    LEFT JOIN {table} v ON v.chunk_pk = u.id AND v.collection_id = p.collection_id
                         AND v.chunk_pk = ANY (p_ids);
END
$body$),
('measures', 'multivector', 'STABLE',
 $body$
BEGIN
    sims := {own}sims(p, p_space, p_ids);
    l2 := array_fill(NULL::float8, ARRAY[cardinality(p_ids)]);
END
$body$),
('maxsim', 'multivector', 'STABLE PARALLEL SAFE SET enable_seqscan = off',
 $body$
BEGIN
    -- for each query token its best cosine over the chunk's tokens, averaged; NULL: the
    -- chunk has no tokens here
    RETURN (SELECT avg(t.best)
            FROM (SELECT max(1 - (v.embedding <=> q.token)) AS best
                  FROM unnest(p_tokens) WITH ORDINALITY AS q(token, n)
                  JOIN {table} v ON v.chunk_pk = p_id AND v.collection_id = p_collection
                  GROUP BY q.n) t);
END
$body$)
$specs$;

CREATE FUNCTION api.space_function(p_space_id integer, p_name text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT format('space_%s_%s', p_space_id, p_name) $$;

-- The sum of an array's elements (NULL when one is NULL).
CREATE FUNCTION api.sum_of(p_values float8[])
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT CASE WHEN array_position(p_values, NULL) IS NULL
                THEN coalesce((SELECT sum(x) FROM unnest(p_values) AS x), 0) END
$$;

-- The query tokens of a multivector space of the plan (index p_space).
CREATE FUNCTION api.plan_tokens(p api.search_plan, p_space integer)
RETURNS vector[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT ARRAY(SELECT u.token FROM unnest(p.tokens, p.token_spaces) WITH ORDINALITY
                                     AS u(token, space, n)
                 WHERE u.space = p_space ORDER BY u.n)
$$;

-- The bound on the similarity of the chunks a walk did not return: p_full when it read
-- p_depth rows; else the walk saw every vector when the collection is small enough for
-- the iterative scan to finish (p_per_chunk vectors a chunk, at most), and an unread chunk
-- has none here (0); else NULL (it gave up: no bound).
CREATE FUNCTION api.walk_bound(p api.search_plan, p_read integer, p_depth integer,
                               p_per_chunk integer, p_full float8)
RETURNS float8
LANGUAGE sql STABLE
AS $$
    SELECT CASE WHEN p_read >= p_depth THEN p_full
                WHEN (SELECT chunks FROM rag.collection_counts
                      WHERE collection_id = p.collection_id) * p_per_chunk
                     <= current_setting('hnsw.max_scan_tuples')::bigint THEN 0
           END
$$;

-- Whether the chunk of vector row p_row (its chunk_pk and collection_id) passes the filter
-- p_filter, as SQL: one primary-key look-up of the chunk, its document's metadata read
-- only when the filter needs it.
CREATE FUNCTION api.passes_sql(p_filter text, p_row text)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
    SELECT format('(SELECT api.passes(%1$s, c, (SELECT d.metadata FROM rag.documents d
                                                WHERE d.id = c.document_id
                                                  AND d.collection_id = c.collection_id))
                    FROM rag.chunks c
                    WHERE c.id = %2$s.chunk_pk AND c.collection_id = %2$s.collection_id)',
                  p_filter, p_row)
$$;

-- A parameter list: the signature's parameters, then its OUT parameters.
CREATE FUNCTION api.spec_parameters(s api.space_function_signature)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
    SELECT array_to_string(s.params || ARRAY(SELECT 'OUT ' || o FROM unnest(s.outs) o), ', ')
$$;

-- The CREATE FUNCTION statement of one space's function from its body.
CREATE FUNCTION api.space_function_sql(p_space_id integer, b api.space_function_body)
RETURNS text
LANGUAGE sql STABLE
AS $$
    SELECT format('CREATE FUNCTION api.%I(%s) %s LANGUAGE plpgsql %s AS %L',
                  api.space_function(p_space_id, b.name), api.spec_parameters(s),
                  CASE WHEN s.returns IS NOT NULL THEN 'RETURNS ' || s.returns ELSE '' END,
                  b.options,
                  replace(replace(replace(replace(replace(replace(replace(replace(replace(b.body,
                      '{table}', format('rag.%I', api.vector_table(p_space_id))),
                      '{dims}', sp.dims::text),
                      '{ann}', api.ann_order_sql('v', 'v_qh', sp.dims)),
                      '{passes}', api.passes_sql('v_filter', 'v')),
                      '{own}', format('api.space_%s_', p_space_id)),
                      '{op}', CASE sp.metric WHEN 'cosine' THEN '<=>' ELSE '<#>' END),
                      '{cosine}', (sp.metric = 'cosine')::text),
                      '{max_tokens}', coalesce(sp.max_tokens, 1)::text),
                      '{sample}', api.sample_predicate()))
    FROM rag.spaces sp, api.space_function_signatures() s
    WHERE sp.id = p_space_id AND s.name = b.name
$$;

-- The functions of a space: the bodies of its kind.
CREATE FUNCTION api.create_space_functions(p_space_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    b api.space_function_body;
BEGIN
    FOR b IN SELECT f.* FROM api.space_function_bodies() f
             JOIN rag.spaces sp ON sp.kind = f.space_kind AND sp.id = p_space_id
             ORDER BY f.name = 'maxsim' DESC, f.name = 'sims' DESC  -- what others call first
    LOOP
        EXECUTE api.space_function_sql(p_space_id, b);
    END LOOP;
    PERFORM api.create_space_dispatch();
END
$$;

CREATE FUNCTION api.drop_space_functions(p_space_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_name text;
BEGIN
    FOR v_name IN SELECT name FROM api.space_function_signatures() LOOP
        EXECUTE format('DROP FUNCTION IF EXISTS api.%I', api.space_function(p_space_id, v_name));
    END LOOP;
    PERFORM api.create_space_dispatch(p_space_id);
END
$$;
