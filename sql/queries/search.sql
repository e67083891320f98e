-- name: topk
SELECT api.topk(%(collection_id)s, %(plan)b);

-- name: explain
SELECT api.explain(%(collection_id)s, %(plan)b, %(chunk_id)s::text,
                   %(labels)s::text[], %(paths)s::text[]::jsonpath[]);

-- name: space_topk
SELECT api.space_topk(
    p_collection => %(collection_id)s, p_space_id => %(space_id)s, p_vector => %(vector)b,
    p_k => %(k)s, p_min_similarity => %(min_similarity)s::float8, p_filter => %(filter)b,
    p_filtered => %(filtered)s, p_ef_search => %(ef_search)s, p_exact => %(exact)s);

-- name: chunk_vectors
SELECT chunk_id, embedding FROM api.chunk_vectors(%(space)s, %(chunk_ids)s, %(collection_id)s);
