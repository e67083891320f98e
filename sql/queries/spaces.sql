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
