-- name: record_functions
INSERT INTO rag.installed_functions (digest) VALUES (%s)
ON CONFLICT (singleton) DO UPDATE SET digest = excluded.digest, applied_at = now();

-- name: functions_digest
SELECT digest FROM rag.installed_functions;

-- name: readiness
SELECT
    (SELECT version_num FROM alembic_version LIMIT 1) AS revision,
    (SELECT digest FROM rag.installed_functions) AS functions_digest;

-- name: bulk_session_settings
-- A bulk load builds HNSW indexes: give them memory and a parallel worker.
SELECT set_config('maintenance_work_mem', %s, false),
       set_config('max_parallel_maintenance_workers', '1', false);

-- name: collection_partitions
-- {id}: written in, not a parameter (Citus plans no parameterized query through a SQL
-- function that reads a distributed table).
SELECT api.collection_partitions({id});

-- name: vacuum_loaded
-- After a bulk load, the partitions it wrote ({tables}; app/ingest/bulk.py says which).
VACUUM (ANALYZE) {tables};

-- name: warm_plans
-- A pooled connection's search plans made before it is lent (api.warm_plans).
SELECT api.warm_plans();

-- name: local_statement_timeout
SELECT set_config('statement_timeout', %s, true);

-- name: no_statement_timeout
-- For the rest of the transaction (or until set back to what it returns).
SELECT current_setting('statement_timeout') AS before, set_config('statement_timeout', '0', true);

-- name: load_vector_library
SELECT '[1]'::vector;

-- name: ensure_sample_indexes
SELECT api.ensure_sample_indexes();

-- name: hold_service_lock
SELECT pg_advisory_lock_shared(%s);

-- name: service_is_running
-- True when a service holds the service lock (then this session could not take it).
SELECT NOT pg_try_advisory_lock(%s) AS running;

-- name: release_service_lock
SELECT pg_advisory_unlock(%s);

-- name: lock_bulk_load
SELECT pg_try_advisory_lock(%s, %s) AS locked;

-- name: wait_bulk_load
SELECT pg_advisory_lock(%s, %s);

-- name: unlock_bulk_load
SELECT pg_advisory_unlock(%s, %s);

-- name: missing_indexes
-- HNSW indexes missing, and whether a bulk load holds their collection.
SELECT m.space_id, m.space, m.collection_id, m.collection,
       EXISTS (SELECT 1 FROM pg_locks l
               WHERE l.locktype = 'advisory' AND l.classid = %s::bigint
                 AND l.objid = m.collection_id AND l.objsubid = 2 AND l.granted) AS loading
FROM api.missing_space_indexes() m;

-- name: bulk_load_progress
SELECT head_sha256, bytes_done, lines_done, documents, chunks, finished_at
FROM rag.bulk_loads WHERE file = %s;

-- name: start_bulk_load
INSERT INTO rag.bulk_loads AS b (file, head_sha256) VALUES (%(file)s, %(head)s)
ON CONFLICT (file) DO UPDATE
SET head_sha256 = excluded.head_sha256, bytes_done = 0, lines_done = 0, documents = 0,
    chunks = 0, started_at = now(), updated_at = now(), finished_at = NULL;

-- name: advance_bulk_load
UPDATE rag.bulk_loads
SET bytes_done = %(bytes)s, lines_done = %(lines)s, documents = documents + %(documents)s,
    chunks = chunks + %(chunks)s, updated_at = now()
WHERE file = %(file)s;

-- name: finish_bulk_load
UPDATE rag.bulk_loads SET finished_at = now(), updated_at = now() WHERE file = %s;

-- name: partition_has_vectors
SELECT EXISTS (SELECT 1 FROM rag.chunks WHERE collection_id = %s LIMIT 1);

-- name: replica_lag
-- How far a standby's replay is behind, in ms: 0 when it has replayed all it received
-- (or is not a standby), else the age of the last transaction it replayed.
SELECT CASE WHEN NOT pg_is_in_recovery() THEN 0
            WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
            ELSE extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000
       END AS lag_ms;
