-- name: record_functions
INSERT INTO rag.installed_functions (digest) VALUES (%s)
ON CONFLICT (singleton) DO UPDATE SET digest = excluded.digest, applied_at = now();

-- name: readiness
SELECT
    (SELECT version_num FROM alembic_version LIMIT 1) AS revision,
    (SELECT digest FROM rag.installed_functions) AS functions_digest;

-- name: bulk_session_settings
-- A bulk load builds HNSW indexes: give them memory and a parallel worker.
SELECT set_config('maintenance_work_mem', %s, false),
       set_config('max_parallel_maintenance_workers', '1', false);

-- name: vacuum_chunks
VACUUM (ANALYZE) rag.chunks, rag.lex_postings;

-- name: load_vector_library
SELECT '[1]'::vector;
