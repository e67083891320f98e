-- name: topk
SELECT api.topk(%(collection_id)s, %(plan)b);

-- name: explain
SELECT api.explain(%(collection_id)s, %(plan)b, %(chunk_id)s::text,
                   %(labels)s::text[], %(paths)s::text[]::jsonpath[]);

-- name: space_topk
SELECT api.space_topk(%(collection_id)s, %(plan)b, %(min_similarity)s::float8);

-- name: chunk_vectors
SELECT chunk_id, embedding FROM api.chunk_vectors(%(space)s, %(chunk_ids)s, %(collection_id)s);

-- name: term_counts
-- How many of a collection's vectors in a sparse space hold each of these terms, and how
-- many vectors it has there.
SELECT coalesce((SELECT vectors FROM rag.sparse_totals
                 WHERE space_id = %(space)s AND collection_id = %(collection)s), 0) AS vectors,
       coalesce((SELECT jsonb_object_agg(term, vectors) FROM rag.sparse_terms
                 WHERE space_id = %(space)s AND collection_id = %(collection)s
                   AND term = ANY(%(terms)s::integer[])), '{}') AS holding;
