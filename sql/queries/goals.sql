-- name: delete_goal_vectors
DELETE FROM rag.goals WHERE name = %s;

-- name: insert_goal_vector
INSERT INTO rag.goals (name, space_id, embedding, description)
SELECT %(name)s, s.id, %(vector)s::vector, %(description)s FROM rag.spaces s
WHERE s.name = %(space)s;

-- name: get_goal
SELECT g.name, s.name AS space, g.embedding, g.description, g.updated_at
FROM rag.goals g JOIN rag.spaces s ON s.id = g.space_id
WHERE g.name = %s ORDER BY s.id;

-- name: list_goals
SELECT g.name, array_agg(s.name ORDER BY s.id) AS spaces, min(g.description) AS description,
       max(g.updated_at) AS updated_at
FROM rag.goals g JOIN rag.spaces s ON s.id = g.space_id
GROUP BY g.name ORDER BY g.name;

-- name: goal_alignment
-- (in the collection, or every part of a split one)
SELECT g.chunk_id, g.alignment
FROM unnest(api.collection_ids(%(collection)s)) AS c(id),
     api.goal_alignment(%(goal)s, %(space)s, %(chunk_ids)s, c.id) AS g;
