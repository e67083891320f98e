-- name: record_functions
INSERT INTO rag.installed_functions (digest) VALUES (%s)
ON CONFLICT (singleton) DO UPDATE SET digest = excluded.digest, applied_at = now();

-- name: readiness
SELECT
    (SELECT version_num FROM alembic_version LIMIT 1) AS revision,
    (SELECT digest FROM rag.installed_functions) AS functions_digest;
