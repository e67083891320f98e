-- name: list_profiles
SELECT p.name, p.version, p.builtin, v.description, v.w_cos, v.w_rec, v.w_sig, v.w_lex,
       v.hybrid_vector_weight, v.space_weights, v.recency, p.updated_at
FROM rag.profiles p JOIN rag.profile_versions v USING (name, version)
ORDER BY p.builtin DESC, p.name;

-- name: get_profile
SELECT p.name, p.version, p.builtin, v.description, v.w_cos, v.w_rec, v.w_sig, v.w_lex,
       v.hybrid_vector_weight, v.space_weights, v.recency, p.updated_at
FROM rag.profiles p JOIN rag.profile_versions v USING (name, version)
WHERE p.name = %s;

-- name: get_profile_version
SELECT p.name, v.version, p.builtin, v.description, v.w_cos, v.w_rec, v.w_sig, v.w_lex,
       v.hybrid_vector_weight, v.space_weights, v.recency, v.created_at
FROM rag.profiles p JOIN rag.profile_versions v USING (name)
WHERE p.name = %s AND v.version = %s;

-- name: profile_versions
SELECT p.name, v.version, p.builtin, v.description, v.w_cos, v.w_rec, v.w_sig, v.w_lex,
       v.hybrid_vector_weight, v.space_weights, v.recency, v.created_at
FROM rag.profiles p JOIN rag.profile_versions v USING (name)
WHERE p.name = %s ORDER BY v.version;

-- name: put_profile
-- Create the profile at version 1, or move it to its next version.
WITH next AS (
    INSERT INTO rag.profiles AS p (name, version) VALUES (%(name)s, 1)
    ON CONFLICT (name) DO UPDATE SET version = p.version + 1, updated_at = now()
    RETURNING p.name, p.version
)
INSERT INTO rag.profile_versions
    (name, version, description, w_cos, w_rec, w_sig, w_lex, hybrid_vector_weight,
     space_weights, recency)
SELECT next.name, next.version, %(description)s, %(w_cos)s, %(w_rec)s, %(w_sig)s, %(w_lex)s,
       %(hybrid_vector_weight)s, %(space_weights)s, %(recency)s
FROM next
RETURNING version;

-- name: delete_profile
DELETE FROM rag.profiles WHERE name = %s;

-- name: seed_default
-- The default profile, from settings, the first time only.
WITH created AS (
    INSERT INTO rag.profiles (name, version, builtin) VALUES (%(name)s, 1, true)
    ON CONFLICT (name) DO NOTHING
    RETURNING name
)
INSERT INTO rag.profile_versions (name, version, w_rec, w_sig, w_lex, description)
SELECT name, 1, %(w_rec)s, %(w_sig)s, %(w_lex)s,
       'Server-wide defaults (seeded from RAG_DEFAULT_* settings)'
FROM created;

-- name: search_context
-- Everything a search needs besides its vectors: its collection's id (and parts, when
-- split), the default profile, the requested one (if any), and the registered spaces in
-- registry order.
SELECT
    c.id AS collection_id, api.collection_parts(c.id) AS parts,
    (SELECT jsonb_agg(jsonb_build_object(
                'name', p.name, 'version', p.version, 'builtin', p.builtin,
                'w_cos', v.w_cos, 'w_rec', v.w_rec, 'w_sig', v.w_sig, 'w_lex', v.w_lex,
                'hybrid_vector_weight', v.hybrid_vector_weight,
                'space_weights', v.space_weights, 'recency', v.recency))
     FROM rag.profiles p JOIN rag.profile_versions v USING (name, version)
     WHERE p.name = ANY(%(names)s::text[])) AS profiles,
    (SELECT jsonb_agg(jsonb_build_object('id', id, 'name', name, 'dims', dims, 'model', model,
                                         'embedder', embedder, 'kind', kind, 'metric', metric,
                                         'max_tokens', max_tokens)
                      ORDER BY id)
     FROM rag.spaces) AS spaces
FROM (SELECT NULL) AS one
LEFT JOIN rag.collections c ON c.name = %(collection)s AND c.part_of IS NULL;

-- name: profile_names
SELECT name FROM rag.profiles ORDER BY name;
