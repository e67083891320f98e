-- Strategy "scan": score every chunk of the collection that passes the filter, in one
-- statement planned for this request (so a selective filter uses its index, and a large
-- scan runs in parallel), shaped like the plainest "ORDER BY score LIMIT k" a client would
-- write. Exact by construction. The plan's weights, recency and instant are written in as
-- constants (api.score_sql) and the vectors passed as a parameter of their own, so that
-- each row costs the arithmetic alone; every function the statement calls is PARALLEL
-- SAFE (one that is not keeps the whole scan in one process).
--
-- Under max_per_source, the k best under the cap are found among the L best overall
-- (L = 4k, then 8 times more while the L best hold fewer than k under the cap and more
-- chunks remain): the cap never lets a lower chunk displace a higher one, so the k best
-- under the cap of the L best are those of all chunks once there are k of them.

-- One space's similarity for chunk c, as SQL over its joined vector table v<i> (dense and
-- sparse) or a look-up of its tokens (multivector, through the dispatcher: a name written
-- here is one a cluster's worker finds in the copies it makes, distribution.sql);
-- p_vectors: the statement's parameter holding the plan's dense vectors, as in '$4'; the
-- plan is $1.
CREATE FUNCTION api.space_sim_sql(p api.search_plan, p_space integer, p_vectors text)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
    SELECT CASE p.space_kinds[p_space]
        WHEN 'sparse' THEN CASE p.space_metrics[p_space]
            WHEN 'cosine' THEN format('(1 - (v%1$s.embedding <=> ($1).sparse[%1$s]))', p_space)
            ELSE format('(-(v%1$s.embedding <#> ($1).sparse[%1$s]))', p_space) END
        WHEN 'multivector' THEN format(
            'api.space_maxsim(%s, api.plan_tokens($1, %s), c.collection_id, c.id)',
            p.space_ids[p_space], p_space)
        ELSE format('1 - (v%1$s.embedding <=> %2$s[%1$s])', p_space, p_vectors)
    END
$$;

-- The semantic part over the plan's spaces (the space weights written in).
CREATE FUNCTION api.sem_sql(p api.search_plan, p_vectors text)
RETURNS text
LANGUAGE sql IMMUTABLE
SET extra_float_digits = 3  -- weights written in full, whatever the client's setting
AS $$
    SELECT coalesce(string_agg(
               format('%s::float8 * coalesce(%s, 0)', quote_literal(p.space_weights[i]),
                      api.space_sim_sql(p, i, p_vectors)), ' + ' ORDER BY i),
               '0')
    FROM generate_subscripts(p.space_ids, 1) AS i
    WHERE p.space_weights[i] > 0
$$;

-- LEFT JOINs of the plan's dense and sparse vector tables as v1, v2, ... (rows without a
-- vector stay; a multivector space reads its tokens in its similarity instead).
CREATE FUNCTION api.vector_joins_sql(p api.search_plan)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
    SELECT coalesce(string_agg(
               format(' LEFT JOIN rag.%I v%s ON v%s.chunk_pk = c.id AND v%s.collection_id = c.collection_id',
                      api.vector_table(p.space_ids[i]), i, i, i), '' ORDER BY i), '')
    FROM generate_subscripts(p.space_ids, 1) AS i
    WHERE p.space_weights[i] > 0 AND p.space_kinds[i] <> 'multivector'
$$;

-- The statement: (id, chunk_id) of the p_limit best eligible chunks, best first. $1 the
-- plan, $2 / $3 the keyword matches' ids and lex, $4 the plan's vectors. Nothing else is
-- read per row: a wider row (the source key's src and doc_id) costs a large scan 15-20%.
CREATE FUNCTION api.scan_sql(p api.search_plan, p_limit integer)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    v_vectors boolean := p.w_cos > 0 OR p.min_similarity IS NOT NULL;
    v_sem text := CASE WHEN v_vectors THEN api.sem_sql(p, '$4') ELSE '0' END;
    v_lex text := CASE WHEN p.w_lex > 0 THEN 'lx.lex' ELSE '0' END;
    v_score text := api.score_sql(p, v_sem, v_lex);
    v_from text := 'rag.chunks c';
    v_where text[] := ARRAY[api.filter_sql(p.filter, '($1).filter')];
BEGIN
    IF p.keyword_only THEN  -- only chunks holding a query term: start from them
        v_from := 'unnest($2, $3) AS lx(id, lex) JOIN rag.chunks c ON c.id = lx.id';
    ELSIF p.w_lex > 0 THEN
        v_from := v_from || ' LEFT JOIN unnest($2, $3) AS lx(id, lex) ON lx.id = c.id';
    END IF;
    IF v_vectors THEN
        v_from := v_from || api.vector_joins_sql(p);
    END IF;
    IF p.min_similarity IS NOT NULL THEN
        v_where := v_where || format('(%s) >= ($1).min_similarity', v_sem);
    END IF;
    IF p.min_score IS NOT NULL THEN
        v_where := v_where || format('%s >= ($1).min_score', v_score);
    END IF;
    RETURN format('SELECT c.id, c.chunk_id FROM %s WHERE %s
                   ORDER BY %s DESC, c.chunk_id LIMIT %s',
                  v_from, array_to_string(v_where, ' AND '), v_score, p_limit);
END
$$;

-- How many chunks pass a filter that is one tag and nothing else (the common facet), read
-- from the tag counts; NULL for any other filter, which only counting the chunks can tell.
-- (Counting them again costs 15-20% of a scan of the rows of one tag in a hundred.)
CREATE FUNCTION api.single_tag_rows(p api.search_plan)
RETURNS bigint
LANGUAGE sql STABLE
AS $$
    SELECT coalesce((SELECT t.chunks FROM rag.tag_counts t
                     WHERE t.collection_id = p.collection_id AND t.tag = one.tags[1]), 0)
    FROM (SELECT coalesce(f.tags_any, f.tags_all) AS tags
          FROM (SELECT (p.filter).*) f
          WHERE (f.tags_any IS NULL) <> (f.tags_all IS NULL)
            AND f.doc_ids IS NULL AND f.src_like IS NULL AND f.metadata IS NULL
            AND f.created_after IS NULL AND f.created_before IS NULL) one
    WHERE cardinality(one.tags) = 1
$$;

CREATE FUNCTION api.topk_scan(
    p api.search_plan, p_lex_ids bigint[], p_lex_scores float8[],
    OUT ids bigint[], OUT candidates bigint
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_limit integer := CASE WHEN p.max_per_source > 0 THEN 4 * p.k ELSE p.k END;
    v_ids bigint[];
    v_chunk_ids text[];
    v_sources text[];
    v_keep integer[];
BEGIN
    LOOP
        EXECUTE format('SELECT coalesce(array_agg(id), ''{}''), coalesce(array_agg(chunk_id), ''{}'')
                        FROM (%s) best(id, chunk_id)', api.scan_sql(p, v_limit))
        INTO v_ids, v_chunk_ids
        USING p, p_lex_ids, p_lex_scores, p.vectors;
        IF p.max_per_source = 0 THEN
            ids := v_ids;
            EXIT;
        END IF;
        v_sources := ARRAY(SELECT api.source_key(c.src, c.doc_id)
                           FROM unnest(v_ids) WITH ORDINALITY AS best(id, n)
                           JOIN rag.chunks c ON c.id = best.id AND c.collection_id = p.collection_id
                                            AND c.id = ANY (v_ids)
                           ORDER BY best.n);
        -- ranks stand in for scores: the statement returned them best first
        v_keep := api.best_positions(
            p, ARRAY(SELECT -n::float8 FROM generate_series(1, cardinality(v_ids)) AS n),
            v_chunk_ids, v_sources, p.k);
        ids := ARRAY(SELECT v_ids[n] FROM unnest(v_keep) AS n);
        EXIT WHEN cardinality(ids) >= p.k OR cardinality(v_ids) < v_limit;
        v_limit := v_limit * 8;
    END LOOP;
    IF p.keyword_only THEN
        candidates := cardinality(p_lex_ids);
    ELSIF NOT p.filtered THEN
        SELECT chunks INTO candidates FROM rag.collection_counts
        WHERE collection_id = p.collection_id;
    ELSE
        candidates := api.single_tag_rows(p);
        IF candidates IS NULL THEN
            EXECUTE format('SELECT count(*) FROM rag.chunks c WHERE %s',
                           api.filter_sql(p.filter, '($1).filter'))
            INTO candidates USING p;
        END IF;
    END IF;
END
$$;
