-- Re-embedding a space: a shadow table, rag.vectors_<id>_next (partitioned by collection
-- as the space's own table is), is filled by a job while searches read the space's table;
-- the switch drops the old table and renames the shadow in one transaction, so searches
-- use the old vectors until the new ones are complete, then the new ones at once.

CREATE FUNCTION api.shadow_table(p_space_id integer)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT 'vectors_' || p_space_id || '_next' $$;

CREATE FUNCTION api.shadow_partition(p_space_id integer, p_collection_id integer)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT 'vectors_' || p_space_id || '_next_' || p_collection_id $$;

-- Whether a collection has its partition of the shadow (one made since the re-embed
-- began has none until api.index_shadow_vectors makes it).
CREATE FUNCTION api.has_shadow_partition(p_space_id integer, p_collection_id integer)
RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
    SELECT to_regclass(format('rag.%I', api.shadow_partition(p_space_id, p_collection_id)))
           IS NOT NULL
$$;

-- One collection's partition of the shadow, with its HNSW index when p_index.
CREATE FUNCTION api.create_shadow_partition(
    p_space_id integer, p_collection_id integer, p_dims integer, p_index boolean
) RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_space rag.spaces;
    v_partition text := api.shadow_partition(p_space_id, p_collection_id);
BEGIN
    SELECT * INTO STRICT v_space FROM rag.spaces WHERE id = p_space_id;
    EXECUTE format('CREATE TABLE IF NOT EXISTS rag.%I PARTITION OF rag.%I FOR VALUES IN (%s)',
                   v_partition, api.shadow_table(p_space_id), p_collection_id);
    IF p_index THEN
        EXECUTE format(
            'CREATE INDEX IF NOT EXISTS %I ON rag.%I USING hnsw
                 ((l2_normalize(embedding)::halfvec(%s)) halfvec_cosine_ops)
                 WITH (m = %s, ef_construction = %s)',
            v_partition || '_hnsw', v_partition, p_dims, v_space.hnsw_m,
            v_space.hnsw_ef_construction);
    END IF;
END
$$;

-- The shadow of a space for vectors of p_dims dimensions, a partition per collection and
-- no index yet (built once it is filled); one a re-embed left behind is dropped first.
CREATE FUNCTION api.create_shadow_vectors(p_space_id integer, p_dims integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_collection integer;
BEGIN
    EXECUTE format('DROP TABLE IF EXISTS rag.%I', api.shadow_table(p_space_id));
    EXECUTE format(
        'CREATE TABLE rag.%I (
             collection_id integer NOT NULL,
             chunk_pk      bigint NOT NULL,
             embedding     vector(%s) NOT NULL,
             PRIMARY KEY (chunk_pk, collection_id)
         ) PARTITION BY LIST (collection_id)',
        api.shadow_table(p_space_id), p_dims);
    -- (inline storage as api.register_space gives the space's table; partitions inherit it)
    IF p_dims <= 2000 THEN
        EXECUTE format('ALTER TABLE rag.%I ALTER COLUMN embedding SET STORAGE PLAIN',
                       api.shadow_table(p_space_id));
    END IF;
    FOR v_collection IN SELECT id FROM rag.collections ORDER BY id LOOP
        PERFORM api.create_shadow_partition(p_space_id, v_collection, p_dims, false);
    END LOOP;
    PERFORM api.distribute_table(format('rag.%I', api.shadow_table(p_space_id))::regclass);
END
$$;

-- Every collection's shadow partition with its index (collections made meanwhile too).
CREATE FUNCTION api.index_shadow_vectors(p_space_id integer, p_dims integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_collection integer;
    v_space rag.spaces;
BEGIN
    FOR v_collection IN SELECT id FROM rag.collections ORDER BY id LOOP
        PERFORM api.create_shadow_partition(p_space_id, v_collection, p_dims, true);
    END LOOP;
    -- the walk's check's sample index, built here rather than at the switch, which holds
    -- the space's tables locked (api.ensure_sample_indexes)
    SELECT * INTO STRICT v_space FROM rag.spaces WHERE id = p_space_id;
    v_space.dims := p_dims;
    PERFORM api.create_sample_index(v_space, api.shadow_table(p_space_id),
                                    api.shadow_table(p_space_id) || '_sample');
END
$$;

-- The switch, in the caller's transaction: the shadow becomes the space's table, the
-- space its new dimensions, embedder and model, and its functions are made again.
CREATE FUNCTION api.switch_to_shadow(
    p_space_id integer, p_dims integer, p_embedder jsonb, p_model text
) RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_collection integer;
BEGIN
    PERFORM api.drop_space_functions(p_space_id);
    EXECUTE format('DROP TABLE rag.%I', api.vector_table(p_space_id));
    EXECUTE format('ALTER TABLE rag.%I RENAME TO %I', api.shadow_table(p_space_id),
                   api.vector_table(p_space_id));
    FOR v_collection IN SELECT id FROM rag.collections ORDER BY id LOOP
        EXECUTE format('ALTER TABLE rag.%I RENAME TO %I',
                       api.shadow_partition(p_space_id, v_collection),
                       api.vector_partition(p_space_id, v_collection));
        EXECUTE format('ALTER INDEX rag.%I RENAME TO %I',
                       api.shadow_partition(p_space_id, v_collection) || '_hnsw',
                       api.hnsw_index(p_space_id, v_collection));
    END LOOP;
    UPDATE rag.spaces
    SET dims = p_dims, embedder = p_embedder, embedder_next = NULL, model = p_model
    WHERE id = p_space_id;
    -- the shadow's sample index (api.index_shadow_vectors) takes the old one's name; the
    -- old one went with the old table
    IF to_regclass(format('rag.%I', api.shadow_table(p_space_id) || '_sample')) IS NOT NULL THEN
        EXECUTE format('ALTER INDEX rag.%I RENAME TO %I',
                       api.shadow_table(p_space_id) || '_sample', api.sample_index(p_space_id));
    END IF;
    PERFORM api.ensure_sample_indexes();
    PERFORM api.create_space_functions(p_space_id);
    PERFORM api.routing_changed();
END
$$;

-- A re-embed given up (cancelled, failed): its shadow dropped, the space as it was.
CREATE FUNCTION api.drop_shadow_vectors(p_space_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    EXECUTE format('DROP TABLE IF EXISTS rag.%I', api.shadow_table(p_space_id));
    UPDATE rag.spaces SET embedder_next = NULL WHERE id = p_space_id;
END
$$;
