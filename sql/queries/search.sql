-- name: topk
SELECT api.topk(%(collection_id)s, %(plan)b);

-- name: topk_parts
-- Every part of a split collection ranked, in one statement (see api.topk_part).
SELECT n.collection_id, api.topk_part(n.collection_id, %(plan)b)
FROM rag.collection_counts n
WHERE n.collection_id = ANY(%(parts)s::integer[]);

-- name: rrf_part_nearest
-- Each part's nearest chunks in each weighted space (see api.rrf_part_nearest).
SELECT n.collection_id, api.rrf_part_nearest(n.collection_id, %(plan)b)
FROM rag.collection_counts n
WHERE n.collection_id = ANY(%(parts)s::integer[]);

-- name: rrf_part_windows
-- Each part's RRF windows (see api.rrf_part_windows).
SELECT n.collection_id,
       api.rrf_part_windows(n.collection_id, %(plan)b, %(candidates)s::bigint[])
FROM rag.collection_counts n
WHERE n.collection_id = ANY(%(parts)s::integer[]);

-- name: rrf_part_topk
-- Each part's fused top rows from the collection's RRF ranks.
SELECT n.collection_id,
       api.rrf_part_topk(n.collection_id, %(plan)b, %(components)s::text[],
                         %(ids)s::bigint[], %(ranks)s::integer[])
FROM rag.collection_counts n
WHERE n.collection_id = ANY(%(parts)s::integer[]);

-- name: topk_parts_one
-- One part, when the statement over all of them could not run (app/search/store.py).
SELECT api.topk(%(part)s, api.plan_for(%(plan)b, %(part)s));

-- name: rrf_part_nearest_one
SELECT api.rrf_part_nearest(%(part)s, %(plan)b);

-- name: rrf_part_windows_one
SELECT api.rrf_part_windows(%(part)s, %(plan)b, %(candidates)s::bigint[]);

-- name: rrf_part_topk_one
SELECT api.rrf_part_topk(%(part)s, %(plan)b, %(components)s::text[], %(ids)s::bigint[],
                         %(ranks)s::integer[]);

-- name: explain
SELECT api.explain(%(collection_id)s, %(plan)b, %(chunk_id)s::text,
                   %(labels)s::text[], %(paths)s::text[]::jsonpath[]);

-- name: outranking
SELECT api.outranking(%(collection_id)s, %(plan)b, %(score)s::float8, %(chunk_id)s::text);

-- name: chunk_part
-- Which of a split collection's parts holds a chunk.
SELECT collection_id FROM rag.chunks
WHERE chunk_id = %(chunk_id)s AND collection_id = ANY(%(collections)s::integer[])
LIMIT 1;

-- name: space_topk
SELECT api.space_topk(%(collection_id)s, %(plan)b, %(min_similarity)s::float8);

-- name: chunk_vectors
SELECT chunk_id, embedding FROM api.chunk_vectors(%(space)s, %(chunk_ids)s, %(collection_id)s);

-- name: term_counts
-- How many of a collection's vectors in a sparse space hold each of these terms, and how
-- many vectors it has there (summed over the parts of a split collection).
SELECT coalesce((SELECT sum(vectors) FROM rag.sparse_totals
                 WHERE space_id = %(space)s
                   AND collection_id = ANY(%(collections)s::integer[])), 0)::bigint AS vectors,
       coalesce((SELECT jsonb_object_agg(term, vectors)
                 FROM (SELECT term, sum(vectors)::bigint AS vectors FROM rag.sparse_terms
                       WHERE space_id = %(space)s
                         AND collection_id = ANY(%(collections)s::integer[])
                         AND term = ANY(%(terms)s::integer[])
                       GROUP BY term) t), '{}') AS holding;

-- name: keywords
-- The query's terms, their weights and the average chunk length over several collections
-- (the parts of a split collection).
SELECT terms, weights, avg_len FROM api.lex_query(%(collections)s::integer[], %(query)s);

-- name: collation_order
-- Chunk ids in the order the ranking breaks ties by.
SELECT c FROM unnest(%(chunk_ids)s::text[]) AS c ORDER BY c;
