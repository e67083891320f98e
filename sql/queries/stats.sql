-- name: counts
SELECT documents, chunks FROM api.collection_stats(%s);
