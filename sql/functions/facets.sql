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
-- the counts kept at every write (rag.tag_counts, rag.collection_counts): exact at any size.
--
-- The counting statement keeps what it needs of each chunk read in "m" (at most
-- p_max_chunks + 1 rows, to know whether more pass), counts over "counted" (the first
-- p_max_chunks of them), and for metadata keys groups the chunks that read their
-- document's metadata by document ("inherited"), so that a document's values are read
-- once however many of its chunks pass: at 100,000 chunks this is 3x faster than looking
-- each chunk's document up.

-- The distinct scalars that metadata p_meta holds where jsonpath p_path points, as SQL
-- giving a jsonb array (most keys hold one value: only longer arrays pay for DISTINCT).
-- Written out rather than called: a function call per chunk costs 4x the work.
CREATE FUNCTION api.facet_scalars_sql(p_meta text, p_path text)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
    SELECT format('CASE WHEN jsonb_array_length(jsonb_path_query_array(%1$s, %2$s)) <= 1 '
                  'THEN jsonb_path_query_array(%1$s, %2$s) '
                  'ELSE (SELECT jsonb_agg(DISTINCT e) '
                  'FROM jsonb_array_elements(jsonb_path_query_array(%1$s, %2$s)) AS e) END',
                  p_meta, p_path)
$$;

-- Field p_kind as the counting statement reads it: what it keeps of each chunk c read
-- (column f<p_n> of "m"), and its values with their weights as SQL (columns v and w: w
-- chunks hold value v; a NULL v counts nowhere). A chunk holds each tag once; a chunk
-- without a source has no src value; a metadata key gives each scalar it holds (each
-- element of an array) once per chunk, the values a filter {"key": value} compares (the
-- key's jsonpath is ($3)[p_n]).
CREATE FUNCTION api.facet_sql(p_kind text, p_n integer, OUT kept text, OUT vals text)
LANGUAGE sql IMMUTABLE
AS $$
    SELECT CASE p_kind
               WHEN 'tags' THEN 'c.tags'
               WHEN 'src' THEN 'nullif(c.src, '''')'
               WHEN 'doc_id' THEN 'c.doc_id'
               WHEN 'metadata' THEN format('CASE WHEN c.meta IS NOT NULL THEN %s END',
                                           api.facet_scalars_sql('c.meta', path))
           END,
           CASE p_kind
               WHEN 'tags' THEN format('SELECT unnest(m.f%s), 1 FROM counted m', p_n)
               WHEN 'src' THEN format('SELECT m.f%s, 1 FROM counted m', p_n)
               WHEN 'doc_id' THEN format('SELECT m.f%s, 1 FROM counted m', p_n)
               WHEN 'metadata' THEN format(
                   'SELECT e.v, 1 FROM counted m, jsonb_array_elements(m.f%s) AS e(v) '
                   'UNION ALL SELECT e.v, i.chunks FROM inherited i JOIN rag.documents d '
                   'ON d.id = i.document_id AND d.collection_id = ($1).collection_id, '
                   'jsonb_array_elements(%s) AS e(v)',
                   p_n, api.facet_scalars_sql('d.metadata', path))
           END
    FROM (SELECT format('($3)[%s]', p_n) AS path) p
$$;

-- The p_limit most frequent values of a set of (v, w) as SQL, with the number of distinct
-- values: {"values": [{"value", "chunks"}], "distinct"}; ties by value.
CREATE FUNCTION api.facet_top_sql(p_values text, p_limit integer)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
    SELECT format(
        '(SELECT json_build_object(''values'', coalesce(json_agg(json_build_object('
        '''value'', t.v, ''chunks'', t.n) ORDER BY t.n DESC, t.v), ''[]''), '
        '''distinct'', coalesce(max(t.d), 0)) '
        'FROM (SELECT x.v, sum(x.w) AS n, count(*) OVER () AS d FROM (%s) x(v, w) '
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
-- count of p_filter's own collection, when already known, is p_known (p_known_exact: it
-- is exact). The others are counted smallest collection first, within one budget of
-- p_max_chunks chunks read; once it is spent the collection being counted has a lower
-- bound and the rest are left out (exact: false). Collections without such chunks are
-- left out.
CREATE FUNCTION api.collection_facet(
    p_filter api.search_filter, p_filtered boolean, p_keywords api.search_plan,
    p_collections text[], p_limit integer, p_max_chunks integer,
    p_known bigint, p_known_exact boolean
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
    v_collection record;  -- id, name, chunks
    v_count bigint;
    v_names text[] := '{}';
    v_counts bigint[] := '{}';
BEGIN
    FOR v_collection IN
        -- (a split collection's parts counted each, under the collection's name)
        SELECT c.id, coalesce(w.name, c.name) AS name, n.chunks
        FROM rag.collections c JOIN rag.collection_counts n ON n.collection_id = c.id
        LEFT JOIN rag.collections w ON w.id = c.part_of
        WHERE (p_collections IS NULL OR coalesce(w.name, c.name) = ANY (p_collections))
          AND n.chunks > 0
        ORDER BY n.chunks, c.name
    LOOP
        IF NOT p_filtered AND NOT v_keywords THEN
            v_count := v_collection.chunks;
        ELSIF v_collection.id = p_filter.collection_id AND p_known IS NOT NULL THEN
            v_count := p_known;
            v_exact := v_exact AND p_known_exact;
        ELSIF v_left <= 0 THEN
            v_exact := false;
            CONTINUE;
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
            'distinct', cardinality(ARRAY(SELECT DISTINCT unnest(v_names))),
            'exact', v_exact)
        FROM (SELECT name, sum(n)::bigint AS n FROM unnest(v_names, v_counts) AS u(name, n)
              GROUP BY name ORDER BY n DESC, name LIMIT p_limit) t);
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
    v_inherited text := '';
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
        SELECT chunks INTO v_chunks FROM rag.collection_counts
        WHERE collection_id = p_collection;
    END IF;
    FOR n IN 1 .. cardinality(p_kinds) LOOP
        CONTINUE WHEN p_kinds[n] = 'collection' OR (p_kinds[n] = 'tags' AND v_whole);
        v_field := api.facet_sql(p_kinds[n], n);
        v_kept := v_kept || format('%s AS f%s', v_field.kept, n);
        v_tops := v_tops || api.facet_top_sql(v_field.vals, p_limit);
        v_scanned := v_scanned || n;
    END LOOP;
    IF 'metadata' = ANY (p_kinds) THEN
        v_kept := v_kept || ARRAY['c.document_id', 'c.meta IS NULL AND c.inherits AS inherits'];
        v_inherited := ', inherited AS (SELECT document_id, count(*) AS chunks FROM counted '
                       'WHERE inherits GROUP BY document_id)';
    END IF;
    IF cardinality(v_scanned) > 0 OR v_chunks IS NULL THEN
        EXECUTE format(
            'WITH m AS MATERIALIZED (SELECT %s FROM %s WHERE %s LIMIT %s), '
            'counted AS (SELECT * FROM m LIMIT %s)%s '
            'SELECT (SELECT count(*) FROM m), ARRAY[%s]::json[]',
            coalesce(nullif(array_to_string(v_kept, ', '), ''), '1 AS f0'), v_from, v_where,
            p_max_chunks + 1, p_max_chunks, v_inherited, array_to_string(v_tops, ', '))
        INTO v_read, v_tops_found USING p_filter, v_lex_ids, p_paths;
        v_scan_exact := v_read <= p_max_chunks;
        v_chunks := coalesce(v_chunks, least(v_read, p_max_chunks));
    END IF;
    FOR n IN 1 .. cardinality(p_kinds) LOOP
        v_facets := v_facets || CASE
            WHEN p_kinds[n] = 'collection' THEN
                api.collection_facet(p_filter, p_filtered, p_keywords, p_collections, p_limit,
                                     p_max_chunks, v_chunks, v_whole OR v_keywords OR v_scan_exact)::jsonb
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
