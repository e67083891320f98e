-- Functions of each embedding space, generated with the space's table and dimensions
-- written in: a search's per-space statements are then static SQL, planned once per
-- connection and run from PL/pgSQL's plan cache with binary parameters.
--
--   api.space_<id>_nearest(q, depth, filter, filtered) -> (ids[], sims[], far)
--       the HNSW walk (iterative scan, strict order: the caller sets hnsw.*), with the
--       filter applied during the walk when "filtered", nearest first; sims are exact
--       float32 cosine similarities; far is the walk's own (half-precision) distance to
--       the last chunk returned, within api.ann_distance_error(dims) of the exact one.
--   api.space_<id>_region(plan, space index, boxes, sigma, theta, lex, limit)
--       -> (ids[], sims[], region)
--       the chunks of the static region (api.region_chunks: static score >= sigma, from
--       the GiST index) whose whole score reaches theta, with their similarity: the
--       region read once and scored in one statement when this is the plan's only
--       weighted space. region: how many chunks the region holds, counted up to limit;
--       at limit nothing is scored (ids and sims empty).
--   api.space_<id>_score(plan, space index, ids, known_ids, known_sims, lex)
--       -> (ids[], chunk_ids[], sources[], scores[])
--       api.score_ids for a plan whose only weighted space this is, in one statement: the
--       chunks that exist, with their eligible scores (similarity from known_sims where
--       the walk read it, else from the vector);
--   api.space_<id>_sims(q, collection, ids, known_ids, known_sims) -> float8[]
--       the cosine similarity of each chunk id to q, aligned with ids (NULL: no vector),
--       taken from known_sims where the id is among known_ids (read by the walk);
--   api.space_<id>_measures(q, collection, ids) -> (sims float8[], l2 float8[])
--       the cosine similarity and the Euclidean distance of each id, for response rows.
--
-- api.space_nearest, api.space_region, api.space_score, api.space_sims and
-- api.space_measures call the function of a space by its id; they are generated too (a
-- CASE over the registered spaces, static calls), after every change to the registry.
--
-- The planner is kept on the index paths (sorts, bitmaps, hashes and sequential scans
-- disabled inside them): on a collection loaded a moment ago there are no statistics yet,
-- and no other plan answers these statements better.

CREATE FUNCTION api.space_function(p_space_id integer, p_kind text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT format('space_%s_%s', p_space_id, p_kind) $$;

CREATE FUNCTION api.create_space_functions(p_space_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_dims integer := (SELECT dims FROM rag.spaces WHERE id = p_space_id);
    v_table text := api.vector_table(p_space_id);
    v_order text := api.ann_order_sql('v', 'v_q', v_dims);
BEGIN
    EXECUTE format($f$
        CREATE FUNCTION api.%1$I(
            p_q vector, p_depth integer, p_filter api.search_filter, p_filtered boolean,
            OUT ids bigint[], OUT sims float8[], OUT far float8)
        LANGUAGE plpgsql STABLE
        SET enable_sort = off SET enable_bitmapscan = off SET enable_seqscan = off
        AS $body$
        DECLARE
            v_q halfvec(%2$s) := l2_normalize(p_q)::halfvec(%2$s);
        BEGIN
            IF NOT p_filtered THEN
                SELECT coalesce(array_agg(n.id ORDER BY n.rank), '{}'),
                       coalesce(array_agg(n.sim ORDER BY n.rank), '{}')
                INTO ids, sims
                FROM (SELECT v.chunk_pk AS id, (1 - (v.embedding <=> p_q))::float8 AS sim,
                             row_number() OVER () AS rank
                      FROM (SELECT v.chunk_pk, v.embedding FROM rag.%3$I v
                            WHERE v.collection_id = (p_filter).collection_id
                            ORDER BY %4$s LIMIT p_depth) v) n;
            ELSE
                SELECT coalesce(array_agg(n.id ORDER BY n.rank), '{}'),
                       coalesce(array_agg(n.sim ORDER BY n.rank), '{}')
                INTO ids, sims
                FROM (SELECT v.chunk_pk AS id, (1 - (v.embedding <=> p_q))::float8 AS sim,
                             row_number() OVER () AS rank
                      FROM (SELECT v.chunk_pk, v.embedding FROM rag.%3$I v
                            WHERE v.collection_id = (p_filter).collection_id
                              -- a subquery per vector the walk returns: one primary-key
                              -- lookup each, where a join's generic plan may materialize
                              -- every chunk that passes and compare each pair
                              AND (SELECT api.passes(p_filter, c.doc_id, c.src, c.tags,
                                                     c.created_at, c.meta)
                                   FROM rag.chunks c
                                   WHERE c.id = v.chunk_pk
                                     AND c.collection_id = v.collection_id)
                            ORDER BY %4$s LIMIT p_depth) v) n;
            END IF;
            -- the index's own (rounded) distance to the last chunk returned
            SELECT %4$s INTO far FROM rag.%3$I v
            WHERE v.chunk_pk = ids[cardinality(ids)]
              AND v.collection_id = (p_filter).collection_id;
        END
        $body$
        $f$,
        api.space_function(p_space_id, 'nearest'), v_dims, v_table, v_order);
    EXECUTE format($f$
        CREATE FUNCTION api.%1$I(p_q vector, p_collection integer, p_ids bigint[],
                                 p_known_ids bigint[], p_known_sims float8[])
        RETURNS float8[]
        LANGUAGE plpgsql STABLE
        SET enable_mergejoin = off SET enable_seqscan = off
        AS $body$
        BEGIN
            RETURN ARRAY(
                SELECT coalesce(k.sim, (SELECT (1 - (v.embedding <=> p_q))::float8
                                        FROM rag.%2$I v
                                        WHERE v.chunk_pk = u.id
                                          AND v.collection_id = p_collection))
                FROM unnest(p_ids) WITH ORDINALITY AS u(id, n)
                LEFT JOIN unnest(p_known_ids, p_known_sims) AS k(id, sim) ON k.id = u.id
                ORDER BY u.n);
        END
        $body$
        $f$,
        api.space_function(p_space_id, 'sims'), v_table);
    EXECUTE format($f$
        CREATE FUNCTION api.%1$I(p_q vector, p_collection integer, p_ids bigint[],
                                 OUT sims float8[], OUT l2 float8[])
        LANGUAGE plpgsql STABLE
        SET enable_hashjoin = off SET enable_mergejoin = off SET enable_seqscan = off
        AS $body$
        BEGIN
            SELECT array_agg((1 - (v.embedding <=> p_q))::float8 ORDER BY u.n),
                   array_agg((v.embedding <-> p_q)::float8 ORDER BY u.n)
            INTO sims, l2
            FROM unnest(p_ids) WITH ORDINALITY AS u(id, n)
            LEFT JOIN rag.%2$I v ON v.chunk_pk = u.id AND v.collection_id = p_collection;
        END
        $body$
        $f$,
        api.space_function(p_space_id, 'measures'), v_table);
    EXECUTE format($f$
        CREATE FUNCTION api.%1$I(
            p api.search_plan, p_space integer, p_boxes box[], p_sigma float8, p_theta float8,
            p_lex_ids bigint[], p_lex_scores float8[], p_limit integer,
            OUT ids bigint[], OUT sims float8[], OUT region integer)
        LANGUAGE plpgsql STABLE
        SET enable_seqscan = off SET enable_bitmapscan = off SET enable_mergejoin = off
        AS $body$
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
            -- their whole scores, keeping those that reach theta (a chunk on a box edge
            -- may come twice: the caller keeps one)
            SELECT coalesce(array_agg(x.id), '{}'), coalesce(array_agg(x.sim), '{}')
            INTO ids, sims
            FROM (SELECT r.id, v.sim, r.created_at, r.signal
                  FROM unnest(v_ids, v_created, v_signals) AS r(id, created_at, signal)
                  LEFT JOIN (SELECT v.chunk_pk, (1 - (v.embedding <=> v_q))::float8 AS sim
                             FROM rag.%2$I v
                             WHERE v.chunk_pk = ANY (v_ids)
                               AND v.collection_id = p.collection_id) v ON v.chunk_pk = r.id
                  OFFSET 0) x
            LEFT JOIN unnest(p_lex_ids, p_lex_scores) AS lx(id, lex) ON lx.id = x.id
            WHERE api.score(p, v_w * coalesce(x.sim, 0), lx.lex, x.created_at, x.signal)
                  >= p_theta;
        END
        $body$
        $f$,
        api.space_function(p_space_id, 'region'), v_table);
    EXECUTE format($f$
        CREATE FUNCTION api.%1$I(
            p api.search_plan, p_space integer, p_ids bigint[], p_known_ids bigint[],
            p_known_sims float8[], p_lex_ids bigint[], p_lex_scores float8[],
            OUT ids bigint[], OUT chunk_ids text[], OUT sources text[], OUT scores float8[])
        LANGUAGE plpgsql STABLE
        SET enable_seqscan = off SET enable_bitmapscan = off SET enable_mergejoin = off
        AS $body$
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
                                SELECT (1 - (v.embedding <=> v_q))::float8 FROM rag.%2$I v
                                WHERE v.chunk_pk = u.id AND v.collection_id = p.collection_id),
                                0) AS sem) m
                        LEFT JOIN unnest(p_lex_ids, p_lex_scores) AS lx(id, lex) ON lx.id = u.id
                        OFFSET 0) s) x;  -- OFFSET 0: the score is computed once, then checked
        END
        $body$
        $f$,
        api.space_function(p_space_id, 'score'), v_table);
    PERFORM api.create_space_dispatch();
END
$$;

CREATE FUNCTION api.drop_space_functions(p_space_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    EXECUTE format('DROP FUNCTION IF EXISTS api.%I(vector, integer, api.search_filter, boolean)',
                   api.space_function(p_space_id, 'nearest'));
    EXECUTE format('DROP FUNCTION IF EXISTS api.%I(vector, integer, bigint[], bigint[], float8[])',
                   api.space_function(p_space_id, 'sims'));
    EXECUTE format('DROP FUNCTION IF EXISTS api.%I(api.search_plan, integer, bigint[], bigint[], '
                   'float8[], bigint[], float8[])', api.space_function(p_space_id, 'score'));
    EXECUTE format('DROP FUNCTION IF EXISTS api.%I(vector, integer, bigint[])',
                   api.space_function(p_space_id, 'measures'));
    EXECUTE format('DROP FUNCTION IF EXISTS api.%I(api.search_plan, integer, box[], float8, '
                   'float8, bigint[], float8[], integer)', api.space_function(p_space_id, 'region'));
    PERFORM api.create_space_dispatch(p_space_id);
END
$$;

-- The dispatchers: for each registered space (but p_dropped, a space being dropped), a
-- static call of its function; an unknown id raises invalid_space.
CREATE FUNCTION api.create_space_dispatch(p_dropped integer DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_ids integer[] := ARRAY(SELECT id FROM rag.spaces
                             WHERE id IS DISTINCT FROM p_dropped ORDER BY id);
    v_nearest text := ' WHEN NULL THEN NULL;';  -- a CASE needs one WHEN, even with no spaces
    v_sims text := ' WHEN NULL THEN NULL;';
    v_measures text := ' WHEN NULL THEN NULL;';
    v_region text := ' WHEN NULL THEN NULL;';
    v_score text := ' WHEN NULL THEN NULL;';
BEGIN
    FOR i IN 1 .. coalesce(cardinality(v_ids), 0) LOOP
        v_nearest := v_nearest || format(
            ' WHEN %s THEN SELECT * INTO ids, sims, far FROM api.%I(p_q, p_depth, p_filter, p_filtered); RETURN;',
            v_ids[i], api.space_function(v_ids[i], 'nearest'));
        v_sims := v_sims || format(
            ' WHEN %s THEN RETURN api.%I(p_q, p_collection, p_ids, p_known_ids, p_known_sims);',
            v_ids[i], api.space_function(v_ids[i], 'sims'));
        v_measures := v_measures || format(
            ' WHEN %s THEN SELECT * INTO sims, l2 FROM api.%I(p_q, p_collection, p_ids); RETURN;',
            v_ids[i], api.space_function(v_ids[i], 'measures'));
        v_region := v_region || format(
            ' WHEN %s THEN SELECT * INTO ids, sims, region FROM api.%I(p, p_space, p_boxes, p_sigma, p_theta, p_lex_ids, p_lex_scores, p_limit); RETURN;',
            v_ids[i], api.space_function(v_ids[i], 'region'));
        v_score := v_score || format(
            ' WHEN %s THEN SELECT * INTO ids, chunk_ids, sources, scores FROM api.%I(p, p_space, p_ids, p_known_ids, p_known_sims, p_lex_ids, p_lex_scores); RETURN;',
            v_ids[i], api.space_function(v_ids[i], 'score'));
    END LOOP;
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION api.space_nearest(
            p_space_id integer, p_q vector, p_depth integer, p_filter api.search_filter,
            p_filtered boolean, OUT ids bigint[], OUT sims float8[], OUT far float8)
        LANGUAGE plpgsql STABLE
        AS $body$
        BEGIN
            CASE p_space_id %s ELSE PERFORM api.raise_invalid_space(p_space_id::text); END CASE;
        END
        $body$
        $f$, v_nearest);
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION api.space_sims(
            p_space_id integer, p_q vector, p_collection integer, p_ids bigint[],
            p_known_ids bigint[] DEFAULT '{}', p_known_sims float8[] DEFAULT '{}')
        RETURNS float8[]
        LANGUAGE plpgsql STABLE
        AS $body$
        BEGIN
            IF coalesce(cardinality(p_ids), 0) = 0 THEN
                RETURN '{}';
            END IF;
            CASE p_space_id %s ELSE PERFORM api.raise_invalid_space(p_space_id::text); END CASE;
        END
        $body$
        $f$, v_sims);
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION api.space_measures(
            p_space_id integer, p_q vector, p_collection integer, p_ids bigint[],
            OUT sims float8[], OUT l2 float8[])
        LANGUAGE plpgsql STABLE
        AS $body$
        BEGIN
            CASE p_space_id %s ELSE PERFORM api.raise_invalid_space(p_space_id::text); END CASE;
        END
        $body$
        $f$, v_measures);
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION api.space_region(
            p_space_id integer, p api.search_plan, p_space integer, p_boxes box[],
            p_sigma float8, p_theta float8, p_lex_ids bigint[], p_lex_scores float8[],
            p_limit integer, OUT ids bigint[], OUT sims float8[], OUT region integer)
        LANGUAGE plpgsql STABLE
        AS $body$
        BEGIN
            CASE p_space_id %s ELSE PERFORM api.raise_invalid_space(p_space_id::text); END CASE;
        END
        $body$
        $f$, v_region);
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION api.space_score(
            p_space_id integer, p api.search_plan, p_space integer, p_ids bigint[],
            p_known_ids bigint[], p_known_sims float8[], p_lex_ids bigint[],
            p_lex_scores float8[],
            OUT ids bigint[], OUT chunk_ids text[], OUT sources text[], OUT scores float8[])
        LANGUAGE plpgsql STABLE
        AS $body$
        BEGIN
            CASE p_space_id %s ELSE PERFORM api.raise_invalid_space(p_space_id::text); END CASE;
        END
        $body$
        $f$, v_score);
END
$$;

SELECT api.create_space_functions(id) FROM rag.spaces ORDER BY id;
SELECT api.create_space_dispatch();
