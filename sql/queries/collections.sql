-- name: collection_id
SELECT id FROM rag.collections WHERE name = %s;

-- name: lock_collection
-- The first statement of every write to a collection's chunks: the bookkeeping triggers
-- (counts, keyword statistics) lock this row too, and a writer that took other row locks
-- first could deadlock with one holding it. Writers of one collection queue here.
SELECT id FROM rag.collections WHERE name = %s FOR UPDATE;

-- name: create_collection
SELECT name, description, created_at FROM api.create_collection(%(name)s, %(description)s);

-- name: drop_collection
SELECT api.drop_collection(%s) AS chunks;

-- name: collection_stats
SELECT name, description, created_at, documents, chunks FROM api.collection_stats(%s);

-- name: collection_tags
SELECT t.tag, t.chunks
FROM rag.tag_counts t JOIN rag.collections c ON c.id = t.collection_id
WHERE c.name = %s AND t.chunks > 0
ORDER BY t.chunks DESC, t.tag LIMIT %s;

-- name: refresh_statistics
-- ANALYZE the collection's partitions if writes moved its chunk count enough (see
-- sql/functions/statistics.sql); no row when the collection is gone.
SELECT api.refresh_statistics(id, %(min_change)s, %(ratio)s) AS analyzed
FROM rag.collections WHERE name = %(name)s;
