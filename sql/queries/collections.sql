-- name: collection_id
SELECT id, api.collection_parts(id) FROM rag.collections WHERE name = %s AND part_of IS NULL;

-- name: lock_collection
-- The first statement of every write to a collection's chunks (of a split one: to any of
-- its parts): writers of one collection queue here, before the bookkeeping triggers lock
-- the rows of rag.collection_counts (counts, keyword statistics), so that no two writers
-- take those locks in opposite orders.
SELECT id, api.collection_parts(id) FROM rag.collections
WHERE name = %s AND part_of IS NULL FOR UPDATE;

-- name: partitions_wait
-- How long a change to which partitions exist waits for another (this transaction only),
-- and the wait it replaces.
SELECT current_setting('lock_timeout') AS before, set_config('lock_timeout', %s, true);

-- name: partitions_change
-- Changes to which partitions exist, one at a time (app/db/locks.py PARTITIONS); held
-- until the transaction ends.
SELECT pg_advisory_xact_lock(%s);

-- name: collection_room
-- The partition sets held (a split collection's own and each part's), whether the name is
-- taken, the shards each partition is split into, and about how many locks the server's
-- lock table holds.
SELECT (SELECT count(*) FROM rag.collections) AS held,
       EXISTS (SELECT FROM rag.collections WHERE name = %s) AS taken,
       api.partition_shards() AS shards,
       current_setting('max_locks_per_transaction')::bigint
       * (current_setting('max_connections')::bigint
          + current_setting('max_prepared_transactions')::bigint) AS lock_slots;

-- name: create_collection
SELECT name, description, created_at, parts
FROM api.create_collection(%(name)s, %(description)s, %(parts)s);

-- name: drop_collection
SELECT api.drop_collection(%s) AS chunks;

-- name: collection_stats
SELECT name, description, created_at, parts, documents, chunks FROM api.collection_stats(%s);

-- name: collection_tags
SELECT tag, chunks FROM api.collection_tags(%s, %s);

-- name: refresh_statistics
-- ANALYZE the collection's partitions if writes moved its chunk count enough (see
-- sql/functions/statistics.sql), each part of a split one; no row when the collection is
-- gone.
SELECT api.refresh_statistics(id, %(min_change)s, %(ratio)s) AS analyzed
FROM rag.collections
WHERE name = %(name)s OR part_of = (SELECT id FROM rag.collections WHERE name = %(name)s);
