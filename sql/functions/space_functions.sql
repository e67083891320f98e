-- Functions of each embedding space, generated with the space's table and dimensions
-- written in: a search's per-space statements are then static SQL, planned once per
-- connection and run from PL/pgSQL's plan cache with binary parameters.
--
-- Each is described once, in api.space_function_specs(): its kind, parameters, results,
-- settings and body. From that description come the function of every space
-- (api.space_<id>_<kind>, api.create_space_functions), its removal
-- (api.drop_space_functions) and the dispatcher api.space_<kind>(space id, ...) that calls
-- the function of the space it is given (space_dispatch.sql). In a body, {table} is the
-- space's vector table, {dims} its dimensions and {ann} the distance its HNSW index orders
-- by, between v.embedding and the half-precision query v_qh (api.ann_order_sql).
--
--   nearest(q, depth, filter, filtered) -> (ids[], sims[], far)
--       the HNSW walk (iterative scan, strict order: the caller sets hnsw.*), with the
--       filter applied during the walk when "filtered", nearest first; sims are exact
--       float32 cosine similarities; far is the walk's own (half-precision) distance to
--       the last chunk returned, within api.ann_distance_error(dims) of the exact one.
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
--   sims(q, collection, ids, known_ids, known_sims) -> float8[]
--       the cosine similarity of each chunk id to q, aligned with ids (NULL: no vector),
--       taken from known_sims where the id is among known_ids (read by the walk);
--   measures(q, collection, ids) -> (sims float8[], l2 float8[])
--       the cosine similarity and the Euclidean distance of each id, for response rows.
--
-- The planner is kept on the index paths (sorts, bitmaps, hashes and sequential scans
-- disabled inside them): on a collection loaded a moment ago there are no statistics yet,
-- and no other plan answers these statements better.

CREATE TYPE api.space_function_spec AS (
    kind     text,
    params   text[],  -- "name type [DEFAULT value]", in order
    outs     text[],  -- "name type" of each OUT parameter (none: returns)
    returns  text,
    options  text,    -- SET clauses
    body     text     -- PL/pgSQL, with {table}, {dims}, {ann}
);

CREATE FUNCTION api.space_function_specs()
RETURNS SETOF api.space_function_spec
LANGUAGE sql IMMUTABLE
AS $specs$
VALUES
('nearest',
 ARRAY['p_q vector', 'p_depth integer', 'p_filter api.search_filter', 'p_filtered boolean'],
 ARRAY['ids bigint[]', 'sims float8[]', 'far float8'], NULL,
 'SET enable_sort = off SET enable_bitmapscan = off SET enable_seqscan = off',
 $body$
DECLARE
    v_qh halfvec({dims}) := l2_normalize(p_q)::halfvec({dims});
BEGIN
    SELECT coalesce(array_agg(n.id ORDER BY n.rank), '{}'),
           coalesce(array_agg(n.sim ORDER BY n.rank), '{}'), max(n.dist)
    INTO ids, sims, far
    FROM (SELECT v.chunk_pk AS id, (1 - (v.embedding <=> p_q))::float8 AS sim,
                 v.dist, row_number() OVER () AS rank
          FROM (SELECT v.chunk_pk, v.embedding, {ann} AS dist FROM {table} v
                WHERE v.collection_id = (p_filter).collection_id
                  -- a subquery per vector the walk returns: one primary-key lookup each,
                  -- where a join's generic plan may materialize every chunk that passes
                  -- and compare each pair
                  AND (NOT p_filtered
                       OR (SELECT api.passes(p_filter, c, (SELECT d.metadata FROM rag.documents d WHERE d.id = c.document_id AND d.collection_id = c.collection_id)) FROM rag.chunks c
                           WHERE c.id = v.chunk_pk AND c.collection_id = v.collection_id))
                ORDER BY 3 LIMIT p_depth) v) n;
END
$body$),
('walk',
 ARRAY['p api.search_plan', 'p_space integer'], '{}', 'refcursor',
 'SET enable_sort = off SET enable_bitmapscan = off SET enable_seqscan = off',
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
                     OR (SELECT api.passes(v_filter, c, (SELECT d.metadata FROM rag.documents d WHERE d.id = c.document_id AND d.collection_id = c.collection_id)) FROM rag.chunks c
                         WHERE c.id = v.chunk_pk AND c.collection_id = v.collection_id))
              ORDER BY 3) v;
    RETURN v_walk;
END
$body$),
('region',
 ARRAY['p api.search_plan', 'p_space integer', 'p_boxes box[]', 'p_sigma float8',
       'p_theta float8', 'p_lex_ids bigint[]', 'p_lex_scores float8[]', 'p_limit integer'],
 ARRAY['ids bigint[]', 'sims float8[]', 'region integer'], NULL,
 'SET enable_seqscan = off SET enable_bitmapscan = off SET enable_mergejoin = off',
 $body$
DECLARE
    v_q vector := p.vectors[p_space];
    v_w float8 := p.space_weights[p_space];
    v_ids bigint[];
    v_created timestamptz[];
    v_signals real[];
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
                       AND v.collection_id = p.collection_id) v ON v.chunk_pk = r.id
          OFFSET 0) x
    LEFT JOIN unnest(p_lex_ids, p_lex_scores) AS lx(id, lex) ON lx.id = x.id
    WHERE api.score(p, v_w * coalesce(x.sim, 0), lx.lex, x.created_at, x.signal) >= p_theta;
END
$body$),
('score',
 ARRAY['p api.search_plan', 'p_space integer', 'p_ids bigint[]', 'p_known_ids bigint[]',
       'p_known_sims float8[]', 'p_lex_ids bigint[]', 'p_lex_scores float8[]'],
 ARRAY['ids bigint[]', 'chunk_ids text[]', 'sources text[]', 'scores float8[]'], NULL,
 'SET enable_seqscan = off SET enable_bitmapscan = off SET enable_mergejoin = off',
 $body$
DECLARE
    v_q vector := p.vectors[p_space];
    v_w float8 := p.space_weights[p_space];
BEGIN
    SELECT coalesce(array_agg(x.id), '{}'), coalesce(array_agg(x.chunk_id), '{}'),
           coalesce(array_agg(x.source), '{}'), coalesce(array_agg(x.score), '{}')
    INTO ids, chunk_ids, sources, scores
    FROM (SELECT s.id, s.chunk_id, s.source,
                 api.eligible_score(p, s.score, s.sem, s.matched) AS score
          FROM (SELECT c.id, c.chunk_id, api.source_key(c.src, c.doc_id) AS source,
                       api.score(p, m.sem, lx.lex, c.created_at, c.signal) AS score,
                       m.sem, lx.id IS NOT NULL AS matched
                FROM unnest(p_ids) AS u(id)
                JOIN rag.chunks c ON c.id = u.id AND c.collection_id = p.collection_id
                LEFT JOIN unnest(p_known_ids, p_known_sims) AS k(id, sim) ON k.id = u.id
                CROSS JOIN LATERAL (
                    SELECT v_w * coalesce(k.sim, (
                        SELECT (1 - (v.embedding <=> v_q))::float8 FROM {table} v
                        WHERE v.chunk_pk = u.id AND v.collection_id = p.collection_id),
                        0) AS sem) m
                LEFT JOIN unnest(p_lex_ids, p_lex_scores) AS lx(id, lex) ON lx.id = u.id
                OFFSET 0) s) x;  -- OFFSET 0: the score is computed once, then checked
END
$body$),
('sims',
 ARRAY['p_q vector', 'p_collection integer', 'p_ids bigint[]',
       $d$p_known_ids bigint[] DEFAULT '{}'$d$, $d$p_known_sims float8[] DEFAULT '{}'$d$],
 '{}', 'float8[]',
 'SET enable_mergejoin = off SET enable_seqscan = off',
 $body$
BEGIN
    IF coalesce(cardinality(p_ids), 0) = 0 THEN
        RETURN '{}';
    END IF;
    RETURN ARRAY(
        SELECT coalesce(k.sim, (SELECT (1 - (v.embedding <=> p_q))::float8 FROM {table} v
                                WHERE v.chunk_pk = u.id AND v.collection_id = p_collection))
        FROM unnest(p_ids) WITH ORDINALITY AS u(id, n)
        LEFT JOIN unnest(p_known_ids, p_known_sims) AS k(id, sim) ON k.id = u.id
        ORDER BY u.n);
END
$body$),
('measures',
 ARRAY['p_q vector', 'p_collection integer', 'p_ids bigint[]'],
 ARRAY['sims float8[]', 'l2 float8[]'], NULL,
 'SET enable_hashjoin = off SET enable_mergejoin = off SET enable_seqscan = off',
 $body$
BEGIN
    SELECT array_agg((1 - (v.embedding <=> p_q))::float8 ORDER BY u.n),
           array_agg((v.embedding <-> p_q)::float8 ORDER BY u.n)
    INTO sims, l2
    FROM unnest(p_ids) WITH ORDINALITY AS u(id, n)
    LEFT JOIN {table} v ON v.chunk_pk = u.id AND v.collection_id = p_collection;
END
$body$)
$specs$;

CREATE FUNCTION api.space_function(p_space_id integer, p_kind text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT format('space_%s_%s', p_space_id, p_kind) $$;

-- A parameter list: the spec's parameters, then its OUT parameters.
CREATE FUNCTION api.spec_parameters(s api.space_function_spec)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
    SELECT array_to_string(s.params || ARRAY(SELECT 'OUT ' || o FROM unnest(s.outs) o), ', ')
$$;

-- The CREATE FUNCTION statement of one space's function of one kind.
CREATE FUNCTION api.space_function_sql(p_space_id integer, s api.space_function_spec)
RETURNS text
LANGUAGE sql STABLE
AS $$
    SELECT format('CREATE FUNCTION api.%I(%s) %s LANGUAGE plpgsql STABLE %s AS %L',
                  api.space_function(p_space_id, s.kind), api.spec_parameters(s),
                  CASE WHEN s.returns IS NOT NULL THEN 'RETURNS ' || s.returns ELSE '' END,
                  s.options,
                  replace(replace(replace(s.body,
                      '{table}', format('rag.%I', api.vector_table(p_space_id))),
                      '{dims}', sp.dims::text),
                      '{ann}', api.ann_order_sql('v', 'v_qh', sp.dims)))
    FROM rag.spaces sp WHERE sp.id = p_space_id
$$;

CREATE FUNCTION api.create_space_functions(p_space_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    s api.space_function_spec;
BEGIN
    FOR s IN SELECT * FROM api.space_function_specs() LOOP
        EXECUTE api.space_function_sql(p_space_id, s);
    END LOOP;
    PERFORM api.create_space_dispatch();
END
$$;

CREATE FUNCTION api.drop_space_functions(p_space_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_kind text;
BEGIN
    FOR v_kind IN SELECT kind FROM api.space_function_specs() LOOP
        EXECUTE format('DROP FUNCTION IF EXISTS api.%I', api.space_function(p_space_id, v_kind));
    END LOOP;
    PERFORM api.create_space_dispatch(p_space_id);
END
$$;
