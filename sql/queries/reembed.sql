-- name: reembed_space
-- The space a re-embed moves to another embedder (locked against a second one).
SELECT id, name, dims, model, embedder, embedder_next, kind FROM rag.spaces
WHERE name = %(name)s FOR UPDATE;

-- name: reembed_running
SELECT id FROM rag.jobs
WHERE kind = 'reembed' AND space_id = %(space)s AND status IN ('queued', 'running');

-- name: set_embedder_next
UPDATE rag.spaces SET embedder_next = %(next)s WHERE id = %(space)s;

-- name: create_shadow
SELECT api.create_shadow_vectors(%(space)s, %(dims)s);

-- name: index_shadow
SELECT api.index_shadow_vectors(%(space)s, %(dims)s);

-- name: drop_shadow
SELECT api.drop_shadow_vectors(%(space)s);

-- name: switch_to_shadow
SELECT api.switch_to_shadow(%(space)s, %(dims)s, %(embedder)s, %(model)s);

-- name: lock_collections
-- Writers of every collection wait (each locks its collection's row first).
SELECT id FROM rag.collections ORDER BY id FOR UPDATE;

-- name: next_collection
-- The fill reads one collection at a time: a read of every collection's chunks plans and
-- locks each one's partitions (13 locks a collection), for every batch. A collection made
-- since the job began has no partition of the shadow yet: its chunks are caught up after
-- index_shadow makes one.
SELECT min(k.id) FROM rag.collections k
WHERE k.id > %(after)s AND api.has_shadow_partition(%(space)s, k.id);

-- name: chunks_after
-- The collection's next chunks to embed, in chunk order, after the last one done.
-- (scope: the collection whose embedding cache is read, a split collection's for a part)
SELECT c.id, c.collection_id, coalesce(k.part_of, k.id) AS scope, c.chunk, c.title,
       c.heading_path
FROM rag.chunks c JOIN rag.collections k ON k.id = c.collection_id
WHERE c.collection_id = %(collection)s AND c.id > %(after)s ORDER BY c.id LIMIT %(limit)s;

-- name: shadow_started
SELECT EXISTS (SELECT 1 FROM {table});

-- name: collections_down
-- The collections with a partition of the shadow, the last first (where a resumed fill
-- looks for its last chunk).
SELECT k.id FROM rag.collections k
WHERE api.has_shadow_partition(%(space)s, k.id) ORDER BY k.id DESC;

-- name: shadow_last_of
-- The last chunk the fill stored in one collection (its partition's index, one shard).
SELECT max(chunk_pk) FROM {table} WHERE collection_id = %(collection)s;

-- name: chunks_missing
-- Chunks the shadow has no vector for (stored while the job ran).
SELECT c.id, c.collection_id, coalesce(k.part_of, k.id) AS scope, c.chunk, c.title,
       c.heading_path
FROM rag.chunks c JOIN rag.collections k ON k.id = c.collection_id
WHERE NOT EXISTS (SELECT 1 FROM {table} s
                  WHERE s.chunk_pk = c.id AND s.collection_id = c.collection_id)
ORDER BY c.id LIMIT %(limit)s;

-- name: shadow_orphans
-- Vectors of chunks deleted while the job ran.
DELETE FROM {table} s
WHERE NOT EXISTS (SELECT 1 FROM rag.chunks c
                  WHERE c.id = s.chunk_pk AND c.collection_id = s.collection_id);

-- name: copy_shadow
COPY {table} (collection_id, chunk_pk, embedding) FROM STDIN (FORMAT BINARY);
