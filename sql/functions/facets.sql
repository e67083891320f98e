-- Facets: how many of the chunks a search ranks from hold each value of a field (a tag,
-- a source, a document, a metadata value), and how many pass the same filters in each
-- collection the caller may read (app/facets/ plans the request; docs/api/facets.md).
--
-- The chunks counted are those a search with the same body ranks from: every chunk of
-- the collection that passes the filters, compiled by the searches' own compiler
-- (api.filter_sql), or, for a keyword-only search, those of them that hold a query term
-- (api.lex_matches, the searches' own). The cost is bounded: one statement reads at most
-- p_max_chunks of them; past that the counts are over the first p_max_chunks read (lower
-- bounds) and say exact: false. Without a filter, tag and collection counts are read from
-- the counts kept at every write (rag.tag_counts, rag.collections): exact at any size.

-- Field p_kind as the counting statement reads it: what it keeps of each counted chunk c
-- (column f<p_n> of "m"), and the values one chunk gives from there (column v; NULL
-- counts nowhere). A chunk holds each tag once; a chunk without a source has no src
-- value; a metadata key gives each scalar it holds (each element of an array) once per
-- chunk, the values a filter {"key": value} compares (the key's jsonpath is ($3)[p_n]).
CREATE FUNCTION api.facet_sql(p_kind text, p_n integer, OUT kept text, OUT vals text)
LANGUAGE sql IMMUTABLE
AS $$
    SELECT CASE p_kind
               WHEN 'tags' THEN 'c.tags'
               WHEN 'src' THEN 'nullif(c.src, '''')'
               WHEN 'doc_id' THEN 'c.doc_id'
               WHEN 'metadata' THEN format(
                   'ARRAY(SELECT DISTINCT x FROM jsonb_path_query(api.chunk_meta(c, '
                   '(SELECT d.metadata FROM rag.documents d WHERE d.id = c.document_id '
                   'AND d.collection_id = c.collection_id)), ($3)[%s]) AS x)', p_n)
           END,
           CASE WHEN p_kind IN ('tags', 'metadata') THEN format('unnest(m.f%s)', p_n)
                WHEN p_kind IN ('src', 'doc_id') THEN format('m.f%s', p_n)
           END
$$;

-- The p_limit most frequent values of a set of (v) as SQL, with the number of distinct
-- values: {"values": [{"value", "chunks"}], "distinct"}; ties by value.
CREATE FUNCTION api.facet_top_sql(p_values text, p_limit integer)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
    SELECT format(
        '(SELECT json_build_object(''values'', coalesce(json_agg(json_build_object('
        '''value'', t.v, ''chunks'', t.n) ORDER BY t.n DESC, t.v), ''[]''), '
        '''distinct'', coalesce(max(t.d), 0)) '
        'FROM (SELECT x.v, count(*) AS n, count(*) OVER () AS d FROM (%s) x(v) '
        'WHERE x.v IS NOT NULL GROUP BY x.v ORDER BY n DESC, x.v LIMIT %s) t)',
        p_values, p_limit)
$$;

-- Tags of a whole collection, from the counts kept at every write.
CREATE FUNCTION api.collection_tag_facet(p_collection integer, p_limit integer)
RETURNS json
LANGUAGE sql STABLE
AS $$
    SELECT json_build_object(
        'values', coalesce(json_agg(json_build_object('value', t.tag, 'chunks', t.chunks)
                                    ORDER BY t.chunks DESC, t.tag), '[]'),
        'distinct', coalesce(max(t.d), 0), 'exact', true)
    FROM (SELECT tag, chunks, count(*) OVER () AS d FROM rag.tag_counts
          WHERE collection_id = p_collection AND chunks > 0
          ORDER BY chunks DESC, tag LIMIT p_limit) t
$$;

-- How many chunks of each collection named in p_collections (NULL: every collection)
-- pass the filter, or for a keyword-only search (p_keywords) also hold a query term. The
-- smaller collections are counted first, all of them within one budget of p_max_chunks
-- chunks read; once it is spent the collection being counted has a lower bound and the
-- rest are left out (exact: false). Collections without such chunks are left out.
CREATE FUNCTION api.collection_facet(
    p_filter api.search_filter, p_filtered boolean, p_keywords api.search_plan,
    p_collections text[], p_limit integer, p_max_chunks integer
) RETURNS json
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    -- a plan is given (IS NOT NULL of a row would ask that every field be non-null)
    v_keywords boolean := NOT (p_keywords IS NULL);
    v_left bigint := p_max_chunks;
    v_exact boolean := true;
    v_filter api.search_filter := p_filter;
    v_plan api.search_plan;
    v_collection rag.collections;
    v_count bigint;
    v_names text[] := '{}';
    v_counts bigint[] := '{}';
BEGIN
    FOR v_collection IN
        SELECT * FROM rag.collections
        WHERE (p_collections IS NULL OR name = ANY (p_collections)) AND chunks > 0
        ORDER BY chunks, name
    LOOP
        IF NOT p_filtered AND NOT v_keywords THEN
            v_count := v_collection.chunks;
        ELSIF v_left <= 0 THEN
            v_exact := false;
            EXIT;
        ELSE
            v_filter.collection_id := v_collection.id;
            IF v_keywords THEN
                v_plan := p_keywords;
                v_plan.collection_id := v_collection.id;
                v_plan.filter := v_filter;
                v_count := cardinality((api.lex_matches(api.with_keywords(v_plan))).ids);
            ELSE
                EXECUTE format('SELECT count(*) FROM (SELECT FROM rag.chunks c WHERE %s LIMIT %s) m',
                               api.filter_sql(v_filter, '$1'), v_left + 1)
                INTO v_count USING v_filter;
                IF v_count > v_left THEN
                    v_count := v_left;
                    v_exact := false;
                END IF;
            END IF;
            v_left := v_left - v_count;
        END IF;
        IF v_count > 0 THEN
            v_names := v_names || v_collection.name;
            v_counts := v_counts || v_count;
        END IF;
    END LOOP;
    RETURN (
        SELECT json_build_object(
            'values', coalesce(json_agg(json_build_object('value', t.name, 'chunks', t.n)
                                        ORDER BY t.n DESC, t.name), '[]'),
            'distinct', cardinality(v_names), 'exact', v_exact)
        FROM (SELECT name, n FROM unnest(v_names, v_counts) AS u(name, n)
              ORDER BY n DESC, name LIMIT p_limit) t);
END
$$;

-- The facets of one request: p_kinds[i] the kind of field i (tags, src, doc_id,
-- metadata, collection), p_paths[i] its jsonpath (metadata), p_keywords the plan of a
-- keyword-only search (NULL for any other), p_collections the collections the caller may
-- read (NULL: all). Returns {"chunks": how many chunks pass (a lower bound when the
-- budget ran out), "exact": every number is exact, "facets": [one per field, in order:
-- {"values", "distinct", "exact"}]}.
CREATE FUNCTION api.facets(
    p_collection integer, p_filter api.search_filter, p_filtered boolean,
    p_keywords api.search_plan, p_kinds text[], p_paths jsonpath[], p_collections text[],
    p_limit integer, p_max_chunks integer
) RETURNS json
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    -- a plan is given (IS NOT NULL of a row would ask that every field be non-null)
    v_keywords boolean := NOT (p_keywords IS NULL);
    v_whole boolean := NOT p_filtered AND NOT v_keywords;  -- every chunk counts
    v_lex_ids bigint[];
    v_from text := 'rag.chunks c';
    v_where text := api.filter_sql(p_filter, '$1');
    v_kept text[] := '{}';
    v_tops text[] := '{}';
    v_scanned integer[] := '{}';  -- the fields the statement counts, by position
    v_field record;
    v_read bigint;
    v_tops_found json[];
    v_scan_exact boolean := true;
    v_chunks bigint;
    v_facets jsonb[] := '{}';
BEGIN
    IF v_keywords THEN
        v_lex_ids := (api.lex_matches(api.with_keywords(p_keywords))).ids;
        v_chunks := cardinality(v_lex_ids);
        -- the matches passed the filter already
        v_from := 'unnest($2) AS lx(id) JOIN rag.chunks c ON c.id = lx.id';
        v_where := 'c.collection_id = ($1).collection_id';
    ELSIF v_whole THEN
        SELECT chunks INTO v_chunks FROM rag.collections WHERE id = p_collection;
    END IF;
    FOR n IN 1 .. cardinality(p_kinds) LOOP
        CONTINUE WHEN p_kinds[n] = 'collection' OR (p_kinds[n] = 'tags' AND v_whole);
        v_field := api.facet_sql(p_kinds[n], n);
        v_kept := v_kept || format('%s AS f%s', v_field.kept, n);
        v_tops := v_tops || api.facet_top_sql(format('SELECT %s FROM counted m', v_field.vals),
                                              p_limit);
        v_scanned := v_scanned || n;
    END LOOP;
    IF cardinality(v_scanned) > 0 OR v_chunks IS NULL THEN
        EXECUTE format(
            'WITH m AS MATERIALIZED (SELECT %s FROM %s WHERE %s LIMIT %s), '
            'counted AS (SELECT * FROM m LIMIT %s) '
            'SELECT (SELECT count(*) FROM m), ARRAY[%s]::json[]',
            coalesce(nullif(array_to_string(v_kept, ', '), ''), '1 AS f0'), v_from, v_where,
            p_max_chunks + 1, p_max_chunks, array_to_string(v_tops, ', '))
        INTO v_read, v_tops_found USING p_filter, v_lex_ids, p_paths;
        v_scan_exact := v_read <= p_max_chunks;
        v_chunks := coalesce(v_chunks, least(v_read, p_max_chunks));
    END IF;
    FOR n IN 1 .. cardinality(p_kinds) LOOP
        v_facets := v_facets || CASE
            WHEN p_kinds[n] = 'collection' THEN
                api.collection_facet(p_filter, p_filtered, p_keywords, p_collections, p_limit,
                                     p_max_chunks)::jsonb
            WHEN p_kinds[n] = 'tags' AND v_whole THEN
                api.collection_tag_facet(p_collection, p_limit)::jsonb
            ELSE
                v_tops_found[array_position(v_scanned, n)]::jsonb
                || jsonb_build_object('exact', v_scan_exact)
        END;
    END LOOP;
    RETURN json_build_object(
        'chunks', v_chunks,
        'exact', v_scan_exact AND NOT EXISTS (SELECT FROM unnest(v_facets) f
                                              WHERE NOT (f ->> 'exact')::boolean),
        'facets', to_json(v_facets));
END
$$;
