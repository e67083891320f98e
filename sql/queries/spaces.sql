-- name: space_dims
SELECT dims FROM rag.spaces WHERE name = %s;

-- name: register_space
SELECT id, name, dims, model, description, created_at, hnsw_m, hnsw_ef_construction, kind,
       metric, max_tokens
FROM api.register_space(p_name => %(name)s, p_dims => %(dims)s, p_model => %(model)s,
                        p_description => %(description)s, p_hnsw_m => %(m)s,
                        p_hnsw_ef_construction => %(ef_construction)s, p_kind => %(kind)s,
                        p_metric => %(metric)s, p_max_tokens => %(max_tokens)s);

-- name: list_spaces
SELECT id, name, dims, model, description, created_at, hnsw_m, hnsw_ef_construction,
       embedder, embedder_next, kind, metric, max_tokens
FROM rag.spaces ORDER BY id;

-- name: drop_space
SELECT api.drop_space(%s);

-- name: space_stats
SELECT name, dims, model, description, vectors
FROM api.space_stats(api.collection_ids(%s));

-- name: space_vector_count
-- Per space, the index targets in one collection (each part of a split one) and about
-- how many vectors each holds.
SELECT s.id, s.name, c.id, c.name, greatest(p.reltuples, 0)::bigint
FROM rag.spaces s
CROSS JOIN rag.collections c
JOIN pg_class p ON p.oid = format('rag.%%I', api.vector_partition(s.id, c.id))::regclass
WHERE c.parts = 1
  AND (c.name = %(name)s OR c.part_of = (SELECT id FROM rag.collections WHERE name = %(name)s))
ORDER BY s.id, c.id;

-- name: drop_space_index
SELECT api.drop_space_index(%s, %s);

-- name: create_space_index
SELECT api.create_space_index(%s, %s);

-- name: index_build_progress
SELECT phase, tuples_done, tuples_total FROM pg_stat_progress_create_index WHERE pid = %s;

-- name: cluster_index_build_progress
-- On a Citus cluster: the builds of an index partition's shards on the workers, summed.
SELECT max(b.phase), sum(b.done)::bigint, sum(b.total)::bigint
FROM run_command_on_workers(format(
         $q$SELECT coalesce(json_agg(json_build_object('phase', phase, 'done', tuples_done,
                                                        'total', tuples_total)), '[]')
            FROM pg_stat_progress_create_index
            WHERE relid::regclass::text LIKE %%L$q$,
         'rag.' || api.vector_partition(%s, %s) || '\_%%')) AS w,
     json_to_recordset(w.result::json) AS b(phase text, done bigint, total bigint)
WHERE w.success;

-- name: set_space_embedder
UPDATE rag.spaces SET embedder = %(embedder)s WHERE id = %(id)s;

-- name: distributed
SELECT api.distributed();
