-- name: counts
SELECT (SELECT count(*) FROM rag.documents d WHERE d.collection_id = c.id), c.chunks
FROM rag.collections c WHERE c.name = %s;
