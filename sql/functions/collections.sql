-- Collections: named sets of documents (a tenant, an application). Every search, read
-- and write names one ("default" when omitted). Each collection is a partition of its
-- own in rag.chunks, rag.lex_postings and every space's vector table, named by id.

-- The collections holding a collection's chunks: itself, or a split one's parts.
CREATE FUNCTION api.collection_ids(p_name text)
RETURNS integer[]
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_collection rag.collections;
BEGIN
    SELECT * INTO v_collection FROM rag.collections WHERE name = p_name AND part_of IS NULL;
    IF NOT FOUND THEN
        PERFORM api.raise_not_found(format('no collection named %s', quote_literal(p_name)),
                                    jsonb_build_object('collection', p_name));
    END IF;
    IF v_collection.parts > 1 THEN
        RETURN api.collection_parts(v_collection.id);
    END IF;
    RETURN ARRAY[v_collection.id];
END
$$;

-- A whole collection's id. A split one is refused: what asks for one id (a SQL client's
-- search, api.rag_topk_weighted) would read none of its parts; the service searches
-- every part and merges their rows.
CREATE FUNCTION api.collection_id(p_name text)
RETURNS integer
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_ids integer[] := api.collection_ids(p_name);
BEGIN
    IF cardinality(v_ids) > 1 THEN
        PERFORM api.raise_conflict(
            format('collection %s is split into %s parts: search it through the service '
                   '(POST /api/rag/search), which searches every part',
                   quote_literal(p_name), cardinality(v_ids)),
            jsonb_build_object('collection', p_name));
    END IF;
    RETURN v_ids[1];
END
$$;

CREATE FUNCTION api.create_collection_partitions(p_collection_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_space integer;
BEGIN
    EXECUTE format('CREATE TABLE rag.%I PARTITION OF rag.chunks FOR VALUES IN (%s)',
                   'chunks_' || p_collection_id, p_collection_id);
    EXECUTE format('CREATE TABLE rag.%I PARTITION OF rag.lex_postings FOR VALUES IN (%s)',
                   'lex_postings_' || p_collection_id, p_collection_id);
    FOR v_space IN SELECT id FROM rag.spaces ORDER BY id LOOP
        PERFORM api.create_vector_partition(v_space, p_collection_id);
    END LOOP;
END
$$;

-- The names of a collection's partitions (in schema rag): each space's vectors, the
-- keyword postings, the chunks.
CREATE FUNCTION api.collection_partitions(p_collection_id integer)
RETURNS SETOF text
LANGUAGE sql STABLE
AS $$
    SELECT name FROM (
        SELECT 1 AS n, s.id, api.vector_partition(s.id, p_collection_id) AS name
        FROM rag.spaces s
        UNION ALL SELECT 2, 0, 'lex_postings_' || p_collection_id
        UNION ALL SELECT 3, 0, 'chunks_' || p_collection_id) t
    ORDER BY n, id
$$;

-- A collection, whole (p_parts 1) or split into p_parts parts (see
-- sql/schema/0016_split_collections.sql): the collection's own row holds nothing, each
-- part is a collection of its own.
CREATE FUNCTION api.create_collection(
    p_name text, p_description text DEFAULT '', p_parts integer DEFAULT 1
)
RETURNS rag.collections
LANGUAGE plpgsql
AS $$
DECLARE
    v_collection rag.collections;
    v_placed text[] := '{}';
    v_part record;
BEGIN
    INSERT INTO rag.collections (name, description, parts)
    VALUES (p_name, coalesce(p_description, ''), p_parts)
    RETURNING * INTO v_collection;
    PERFORM api.add_collection_storage(v_collection.id);
    FOR n IN 1 .. CASE WHEN p_parts > 1 THEN p_parts ELSE 0 END LOOP
        v_part := api.placed_collection_id(v_placed);
        v_placed := v_placed || v_part.node;
        INSERT INTO rag.collections (id, name, part_of)
        VALUES (v_part.id, p_name || '.' || n, v_collection.id);
        PERFORM api.add_collection_storage(v_part.id);
    END LOOP;
    RETURN v_collection;
END
$$;

CREATE FUNCTION api.add_collection_storage(p_collection_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    INSERT INTO rag.collection_counts (collection_id) VALUES (p_collection_id);
    PERFORM api.create_collection_partitions(p_collection_id);
END
$$;

-- An id for a new part of a collection, held on a worker none of its placed siblings is
-- on while there is one (on Citus a collection's shard group, and so its worker, follows
-- from its id); on one node, the next id. The id's worker is returned as node.
CREATE FUNCTION api.placed_collection_id(p_taken text[], OUT id integer, OUT node text)
LANGUAGE plpgsql
AS $$
DECLARE
    v_sequence text := pg_get_serial_sequence('rag.collections', 'id');
    v_workers integer;
BEGIN
    node := '';
    IF NOT api.distributed() THEN
        id := nextval(v_sequence);
        RETURN;
    END IF;
    EXECUTE 'SELECT count(*) FROM pg_dist_node
             WHERE noderole = ''primary'' AND isactive AND shouldhaveshards'
    INTO v_workers;
    -- (ids whose worker is taken are skipped: a hash spreads ids evenly over the shard
    -- groups, so a free worker comes within a few)
    FOR attempt IN 1 .. 256 LOOP
        id := nextval(v_sequence);
        EXECUTE 'SELECT n.nodename || '':'' || n.nodeport
                 FROM pg_dist_placement pl JOIN pg_dist_node n ON n.groupid = pl.groupid
                 WHERE pl.shardid = get_shard_id_for_distribution_column(''rag.documents'', $1)
                 LIMIT 1'
        INTO node USING id;
        EXIT WHEN NOT node = ANY (p_taken)
                  OR cardinality(ARRAY(SELECT DISTINCT unnest(p_taken))) >= v_workers;
    END LOOP;
END
$$;

-- The parts of a split collection (ids, in order); none for a whole one.
CREATE FUNCTION api.collection_parts(p_collection_id integer)
RETURNS integer[]
LANGUAGE sql STABLE
AS $$
    SELECT coalesce(array_agg(id ORDER BY id), '{}') FROM rag.collections
    WHERE part_of = p_collection_id
$$;

-- Delete a collection (and its parts) with everything in it, in the caller's
-- transaction. Returns the number of chunks it held.
CREATE FUNCTION api.drop_collection(p_name text)
RETURNS bigint
LANGUAGE plpgsql
AS $$
DECLARE
    v_collection rag.collections;
    v_chunks bigint;
    v_parts integer[];
    v_ids integer[];
    v_part integer;
BEGIN
    SELECT * INTO v_collection FROM rag.collections
    WHERE name = p_name AND part_of IS NULL FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM api.raise_not_found(format('no collection named %s', quote_literal(p_name)),
                                    jsonb_build_object('collection', p_name));
    END IF;
    IF v_collection.id = 1 THEN
        PERFORM api.raise_conflict('the default collection cannot be deleted',
                                       jsonb_build_object('collection', p_name));
    END IF;
    -- (ids first: on Citus no function call may sit in a query of distributed tables)
    v_parts := api.collection_parts(v_collection.id);
    v_ids := v_collection.id || v_parts;
    SELECT sum(n.chunks) INTO v_chunks FROM rag.collection_counts n
    WHERE n.collection_id = ANY (v_ids);
    FOREACH v_part IN ARRAY v_parts LOOP
        PERFORM api.drop_collection_storage(v_part);
        DELETE FROM rag.collections WHERE id = v_part;
    END LOOP;
    PERFORM api.drop_collection_storage(v_collection.id);
    DELETE FROM rag.collections WHERE id = v_collection.id;
    RETURN v_chunks;
END
$$;

-- Everything stored for one collection (or part): its partitions are dropped (no
-- row-by-row work), then its documents, counts and jobs.
CREATE FUNCTION api.drop_collection_storage(p_collection_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_partition text;
BEGIN
    FOR v_partition IN SELECT api.collection_partitions(p_collection_id) LOOP
        EXECUTE format('DROP TABLE rag.%I', v_partition);
    END LOOP;
    DELETE FROM rag.lex_terms WHERE collection_id = p_collection_id;
    DELETE FROM rag.tag_counts WHERE collection_id = p_collection_id;
    DELETE FROM rag.documents WHERE collection_id = p_collection_id;
    DELETE FROM rag.collection_counts WHERE collection_id = p_collection_id;
    -- (its jobs: on Citus no foreign key ties the coordinator's queue to the collections)
    DELETE FROM rag.jobs WHERE collection_id = p_collection_id;
END
$$;

-- Collections with their counts (a split collection's summed over its parts, which are
-- not listed themselves). (PL/pgSQL, the distributed tables read on their own and grouped
-- by collection: Citus plans neither a set-returning SQL function's query nor a count
-- correlated with a row of rag.collections.)
CREATE FUNCTION api.collection_stats(p_name text DEFAULT NULL)
RETURNS TABLE (name text, description text, created_at timestamptz, parts integer,
               documents bigint, chunks bigint)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_ids integer[];
    v_doc_ids integer[];
    v_docs bigint[];
    v_count_ids integer[];
    v_chunks bigint[];
BEGIN
    v_ids := ARRAY(SELECT c.id FROM rag.collections c
                   WHERE p_name IS NULL OR c.name = p_name
                      OR c.part_of = (SELECT w.id FROM rag.collections w WHERE w.name = p_name));
    SELECT coalesce(array_agg(d.collection_id), '{}'), coalesce(array_agg(d.documents), '{}')
    INTO v_doc_ids, v_docs
    FROM (SELECT r.collection_id, count(*) AS documents FROM rag.documents r
          WHERE r.collection_id = ANY (v_ids) GROUP BY r.collection_id) d;
    SELECT coalesce(array_agg(n.collection_id), '{}'), coalesce(array_agg(n.chunks), '{}')
    INTO v_count_ids, v_chunks
    FROM rag.collection_counts n WHERE n.collection_id = ANY (v_ids);
    RETURN QUERY
    SELECT c.name, c.description, c.created_at, c.parts::integer,
           coalesce(sum(d.documents), 0)::bigint, coalesce(sum(k.chunks), 0)::bigint
    FROM rag.collections c
    JOIN rag.collections o ON coalesce(o.part_of, o.id) = c.id
    LEFT JOIN unnest(v_doc_ids, v_docs) AS d(id, documents) ON d.id = o.id
    LEFT JOIN unnest(v_count_ids, v_chunks) AS k(id, chunks) ON k.id = o.id
    WHERE c.part_of IS NULL AND c.id = ANY (v_ids)
    GROUP BY c.id
    ORDER BY c.id;
END
$$;

-- A collection's most used tags (a split collection's summed over its parts).
CREATE FUNCTION api.collection_tags(p_name text, p_limit integer)
RETURNS TABLE (tag text, chunks bigint)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_ids integer[] := api.collection_ids(p_name);
BEGIN
    RETURN QUERY
    SELECT t.tag, sum(t.chunks)::bigint FROM rag.tag_counts t
    WHERE t.collection_id = ANY (v_ids) AND t.chunks > 0
    GROUP BY t.tag
    ORDER BY 2 DESC, t.tag LIMIT p_limit;
END
$$;
