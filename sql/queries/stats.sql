-- name: counts
SELECT (SELECT count(*) FROM rag.documents), (SELECT count(*) FROM rag.chunks);
