-- Collections: named sets of documents (a tenant, an application). Every search, read
-- and write names one ("default" when omitted). Each collection is a partition of its
-- own in rag.chunks, rag.lex_postings and every space's vector table, named by id.

CREATE FUNCTION api.collection_id(p_name text)
RETURNS integer
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_id integer;
BEGIN
    SELECT id INTO v_id FROM rag.collections WHERE name = p_name;
    IF v_id IS NULL THEN
        PERFORM api.raise_not_found(format('no collection named %s', quote_literal(p_name)),
                                    jsonb_build_object('collection', p_name));
    END IF;
    RETURN v_id;
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

CREATE FUNCTION api.create_collection(p_name text, p_description text DEFAULT '')
RETURNS rag.collections
LANGUAGE plpgsql
AS $$
DECLARE
    v_collection rag.collections;
BEGIN
    INSERT INTO rag.collections (name, description)
    VALUES (p_name, coalesce(p_description, ''))
    RETURNING * INTO v_collection;
    INSERT INTO rag.collection_counts (collection_id) VALUES (v_collection.id);
    PERFORM api.create_collection_partitions(v_collection.id);
    RETURN v_collection;
END
$$;

-- Delete a collection with everything in it, in the caller's transaction: its partitions
-- are dropped (no row-by-row work), then its documents and counts. Returns the number of
-- chunks it held.
CREATE FUNCTION api.drop_collection(p_name text)
RETURNS bigint
LANGUAGE plpgsql
AS $$
DECLARE
    v_collection rag.collections;
    v_chunks bigint;
    v_partition text;
BEGIN
    SELECT * INTO v_collection FROM rag.collections WHERE name = p_name FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM api.raise_not_found(format('no collection named %s', quote_literal(p_name)),
                                    jsonb_build_object('collection', p_name));
    END IF;
    IF v_collection.id = 1 THEN
        PERFORM api.raise_conflict('the default collection cannot be deleted',
                                       jsonb_build_object('collection', p_name));
    END IF;
    SELECT chunks INTO v_chunks FROM rag.collection_counts
    WHERE collection_id = v_collection.id;
    FOR v_partition IN SELECT api.collection_partitions(v_collection.id) LOOP
        EXECUTE format('DROP TABLE rag.%I', v_partition);
    END LOOP;
    DELETE FROM rag.lex_terms WHERE collection_id = v_collection.id;
    DELETE FROM rag.tag_counts WHERE collection_id = v_collection.id;
    DELETE FROM rag.documents WHERE collection_id = v_collection.id;
    DELETE FROM rag.collection_counts WHERE collection_id = v_collection.id;
    -- (its jobs: on Citus no foreign key ties the coordinator's queue to the collections)
    DELETE FROM rag.jobs WHERE collection_id = v_collection.id;
    DELETE FROM rag.collections WHERE id = v_collection.id;
    RETURN v_chunks;
END
$$;

-- Collections with their counts (chunks from the triggers' counters, documents counted).
-- (PL/pgSQL, documents counted per collection in a subquery of their own: Citus plans
-- neither a set-returning SQL function's query nor a count correlated with a row of
-- rag.collections.)
CREATE FUNCTION api.collection_stats(p_name text DEFAULT NULL)
RETURNS TABLE (name text, description text, created_at timestamptz, documents bigint,
               chunks bigint)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_id integer := (SELECT c.id FROM rag.collections c WHERE c.name = p_name);
BEGIN
    IF p_name IS NULL THEN
        RETURN QUERY
        SELECT c.name, c.description, c.created_at, coalesce(d.documents, 0), n.chunks
        FROM rag.collections c
        JOIN rag.collection_counts n ON n.collection_id = c.id
        LEFT JOIN (SELECT collection_id, count(*) AS documents FROM rag.documents
                   GROUP BY collection_id) d ON d.collection_id = c.id
        ORDER BY c.id;
    ELSE
        RETURN QUERY
        SELECT c.name, c.description, c.created_at,
               (SELECT count(*) FROM rag.documents d WHERE d.collection_id = v_id), n.chunks
        FROM rag.collections c JOIN rag.collection_counts n ON n.collection_id = c.id
        WHERE c.id = v_id;
    END IF;
END
$$;
