-- name: space_dims
SELECT dims FROM rag.spaces WHERE name = %s;

-- name: register_space
SELECT id, name, dims, model, description, created_at
FROM api.register_space(%s, %s, %s, %s, %s, %s);

-- name: list_spaces
SELECT id, name, dims, model, description, created_at FROM rag.spaces ORDER BY id;

-- name: drop_space
SELECT api.drop_space(%s);

-- name: space_stats
SELECT name, dims, model, description, vectors FROM api.space_stats();

-- name: space_vector_count
SELECT s.id, s.name, c.reltuples::bigint
FROM rag.spaces s
JOIN pg_class c ON c.oid = format('rag.%I', api.vector_table(s.id))::regclass
ORDER BY s.id;

-- name: drop_space_index
SELECT api.drop_space_index(%s);

-- name: create_space_index
SELECT api.create_space_index(%s);

-- name: ensure_space_indexes
SELECT api.ensure_space_indexes();

-- name: index_build_progress
SELECT phase, tuples_done, tuples_total FROM pg_stat_progress_create_index WHERE pid = %s;
