-- name: topk_weighted
SELECT api.rag_topk_weighted(%b, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s);

-- name: space_topk
SELECT api.space_topk(%s, %b, %s, %s, %s, %s);

-- name: explain_chunk
SELECT api.explain_chunk(%b, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s);

-- name: chunk_vectors
SELECT chunk_id, embedding FROM api.chunk_vectors(%s, %s);
