-- name: topk
SELECT api.topk(%(collection_id)s, %(plan)b);

-- name: explain
SELECT api.explain(%(collection_id)s, %(plan)b, %(chunk_id)s::text,
                   %(labels)s::text[], %(paths)s::text[]::jsonpath[]);

-- name: space_topk
SELECT api.space_topk(%(collection_id)s, %(plan)b, %(min_similarity)s::float8);

-- name: chunk_vectors
SELECT chunk_id, embedding FROM api.chunk_vectors(%(space)s, %(chunk_ids)s, %(collection_id)s);
