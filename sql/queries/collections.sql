-- name: collection_id
SELECT id FROM rag.collections WHERE name = %s;

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
