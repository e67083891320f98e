-- name: create_job
INSERT INTO rag.jobs (kind, collection_id, space_id, params, items_total)
VALUES (%(kind)s, %(collection)s, %(space)s, %(params)s, %(items)s)
RETURNING id;

-- name: create_item
INSERT INTO rag.job_items (job_id, ordinal, name, content_type, size)
VALUES (%(job)s, %(ordinal)s, %(name)s, %(content_type)s, %(size)s);

-- name: copy_parts
COPY rag.job_parts (job_id, ordinal, seq, data) FROM STDIN (FORMAT BINARY);

-- name: claim_job
-- A job that is queued, or running under a lease that ran out (its worker died): one
-- worker takes it, the others skip it. Collections take turns (each is a tenant): a job
-- goes by how many of its collection's jobs run now plus its place in that collection's
-- queue, then the collection served longest ago, then age. So one collection's long queue
-- never holds every worker while another's job waits, nor goes on while another's waits.
-- Re-embeds (an admin's, no collection) go first at a tie. A job passing its turn
-- (%(passing)s: its id, back in the queue in this transaction; else NULL) gives its worker
-- only to another collection's job whose turn is not after its own: so collections with
-- one worker between them alternate, and a pass never gives a collection more workers
-- than its turn. Taking a job that passed its turn is no new attempt.
WITH running AS (
    SELECT coalesce(collection_id, 0) AS queue, count(*) AS jobs FROM rag.jobs
    WHERE status = 'running' AND lease_until >= now()
    GROUP BY 1),
waiting AS MATERIALIZED (
    SELECT id, coalesce(collection_id, 0) AS queue,
           row_number() OVER (PARTITION BY collection_id ORDER BY id) AS place
    FROM rag.jobs
    WHERE status = 'queued' OR (status = 'running' AND lease_until < now())),
served AS MATERIALIZED (
    SELECT q.queue, (SELECT max(s.started_at) FROM rag.jobs s
                     WHERE s.collection_id = q.queue) AS last
    FROM (SELECT DISTINCT queue FROM waiting) q),
turns AS MATERIALIZED (
    SELECT w.id, coalesce(r.jobs, 0) + w.place AS turn, s.last
    FROM waiting w JOIN served s USING (queue) LEFT JOIN running r USING (queue)),
passed AS (
    SELECT p.collection_id, t.turn FROM rag.jobs p JOIN turns t ON t.id = p.id
    WHERE p.id = %(passing)s)
UPDATE rag.jobs j
SET status = 'running', worker = %(worker)s,
    attempts = j.attempts + CASE WHEN j.status = 'queued' AND j.started_at IS NOT NULL
                                 THEN 0 ELSE 1 END,
    lease_until = now() + make_interval(secs => %(lease)s),
    started_at = coalesce(j.started_at, now()), updated_at = now()
WHERE j.id = (SELECT c.id FROM rag.jobs c JOIN turns t ON t.id = c.id
              WHERE (c.status = 'queued' OR (c.status = 'running' AND c.lease_until < now()))
                AND (%(passing)s::bigint IS NULL
                     OR EXISTS (SELECT 1 FROM passed p
                                WHERE c.collection_id IS DISTINCT FROM p.collection_id
                                  AND t.turn <= p.turn))
              ORDER BY t.turn, t.last NULLS FIRST, c.id
              FOR UPDATE OF c SKIP LOCKED LIMIT 1)
RETURNING j.id, j.kind, j.collection_id, j.space_id, j.params, j.attempts;

-- name: pass_turn
-- The job goes back to the queue (in the transaction that takes another for its worker);
-- not one whose cancel was asked (its worker stops it at its next check).
UPDATE rag.jobs
SET status = 'queued', worker = NULL, lease_until = NULL, updated_at = now()
WHERE id = %(job)s AND worker = %(worker)s AND status = 'running' AND NOT cancel_requested
RETURNING id;

-- name: hold_queue
-- While a job is queued: the collection's place in the queue, one writer at a time (two
-- concurrent requests cannot both take its last free place).
SELECT pg_advisory_xact_lock(hashtext('ragsearch.jobs'), %(collection)s);

-- name: jobs_waiting
SELECT count(*) FROM rag.jobs
WHERE collection_id = %(collection)s AND status IN ('queued', 'running');

-- name: collection_name
SELECT name FROM rag.collections WHERE id = %(id)s;

-- name: renew_lease
-- The worker still holds the job: its lease runs on, unless an item being stored holds the
-- job's row (that transaction renews the lease itself; waiting for it, the heartbeat held
-- a pool connection as long as the store took). Answers whether the job is still this
-- worker's, whether its lease was renewed (its row then locked until the heartbeat's
-- transaction ends), and whether to stop.
WITH renewed AS (
    UPDATE rag.jobs
    SET lease_until = now() + make_interval(secs => %(lease)s), updated_at = now()
    WHERE id = (SELECT id FROM rag.jobs
                WHERE id = %(job)s AND worker = %(worker)s AND status = 'running'
                FOR UPDATE SKIP LOCKED)
    RETURNING cancel_requested)
SELECT EXISTS (SELECT FROM rag.jobs
               WHERE id = %(job)s AND worker = %(worker)s AND status = 'running') AS held,
       EXISTS (SELECT FROM renewed) AS renewed,
       coalesce((SELECT cancel_requested FROM renewed), false) AS cancel;

-- name: pending_items
SELECT ordinal, name, content_type, size FROM rag.job_items
WHERE job_id = %(job)s AND status = 'queued' ORDER BY ordinal;

-- name: item_parts
SELECT data FROM rag.job_parts WHERE job_id = %(job)s AND ordinal = %(ordinal)s ORDER BY seq;

-- name: item_done
WITH item AS (
    UPDATE rag.job_items
    SET status = %(status)s, error = %(error)s, doc_id = %(doc_id)s, chunks = %(chunks)s,
        finished_at = now()
    WHERE job_id = %(job)s AND ordinal = %(ordinal)s AND status = 'queued'
    RETURNING 1),
gone AS (DELETE FROM rag.job_parts WHERE job_id = %(job)s AND ordinal = %(ordinal)s)
UPDATE rag.jobs
SET items_done = items_done + (%(status)s = 'done')::int,
    items_failed = items_failed + (%(status)s = 'failed')::int,
    chunks_stored = chunks_stored + coalesce(%(chunks)s, 0), updated_at = now()
WHERE id = %(job)s AND EXISTS (SELECT 1 FROM item);

-- name: add_progress
UPDATE rag.jobs
SET chunks_total = chunks_total + %(total)s, chunks_embedded = chunks_embedded + %(embedded)s,
    chunks_cached = chunks_cached + %(cached)s, chunks_stored = chunks_stored + %(stored)s,
    updated_at = now()
WHERE id = %(job)s;

-- name: finish_job
WITH rest AS (
    UPDATE rag.job_items SET status = 'cancelled', finished_at = now()
    WHERE job_id = %(job)s AND status = 'queued'),
parts AS (DELETE FROM rag.job_parts WHERE job_id = %(job)s)
UPDATE rag.jobs
SET status = %(status)s, error = %(error)s, finished_at = now(), updated_at = now(),
    lease_until = NULL
WHERE id = %(job)s;

-- name: cancel_job
-- A queued job stops at once (its items not done end cancelled, its input goes, as
-- finish_job does for a running one); a running one at its worker's next check.
WITH stopped AS (
    UPDATE rag.jobs
    SET cancel_requested = true, updated_at = now(),
        status = CASE WHEN status = 'queued' THEN 'cancelled' ELSE status END,
        finished_at = CASE WHEN status = 'queued' THEN now() ELSE finished_at END,
        lease_until = CASE WHEN status = 'queued' THEN NULL ELSE lease_until END
    WHERE id = %(job)s AND status IN ('queued', 'running')
    RETURNING status),
rest AS (
    UPDATE rag.job_items SET status = 'cancelled', finished_at = now()
    WHERE job_id = %(job)s AND status = 'queued'
      AND EXISTS (SELECT 1 FROM stopped WHERE status = 'cancelled')),
parts AS (
    DELETE FROM rag.job_parts
    WHERE job_id = %(job)s AND EXISTS (SELECT 1 FROM stopped WHERE status = 'cancelled'))
SELECT status FROM stopped;

-- name: get_job
SELECT j.id, j.kind, c.name AS collection, s.name AS space, j.status, j.cancel_requested,
       j.attempts, j.items_total, j.items_done, j.items_failed, j.chunks_total,
       j.chunks_embedded, j.chunks_cached, j.chunks_stored, j.error, j.created_at,
       j.started_at, j.updated_at, j.finished_at
FROM rag.jobs j
LEFT JOIN rag.collections c ON c.id = j.collection_id
LEFT JOIN rag.spaces s ON s.id = j.space_id
WHERE j.id = %(job)s;

-- name: job_items
SELECT ordinal, name, content_type, size, status, doc_id, chunks, error, finished_at
FROM rag.job_items WHERE job_id = %(job)s ORDER BY ordinal LIMIT %(limit)s;

-- name: list_jobs
SELECT j.id FROM rag.jobs j LEFT JOIN rag.collections c ON c.id = j.collection_id
WHERE (%(collection)s::text IS NULL OR c.name = %(collection)s)
  AND (%(status)s::text IS NULL OR j.status = %(status)s)
  AND (%(allowed)s::text[] IS NULL OR c.name = ANY (%(allowed)s::text[]))
ORDER BY j.id DESC LIMIT %(limit)s;

-- name: hold_job
-- In the transaction that stores an item: the job's row, locked (a cancel waits for the
-- item, or the item sees the cancel), its lease renewed (the heartbeat skips a job whose
-- row an item holds), and whether it was cancelled; no row when another worker holds it.
UPDATE rag.jobs
SET lease_until = now() + make_interval(secs => %(lease)s), updated_at = now()
WHERE id = %(job)s AND worker = %(worker)s AND status = 'running'
RETURNING cancel_requested;
