-- A job that ended while queued (cancelled before any worker took it) used to keep its
-- items queued and its input: end them as finish_job does (sql/queries/jobs.sql).
UPDATE rag.job_items AS item
SET status = 'cancelled', finished_at = now()
FROM rag.jobs AS job
WHERE item.job_id = job.id AND item.status = 'queued'
  AND job.status IN ('done', 'failed', 'cancelled');

DELETE FROM rag.job_parts AS part
USING rag.jobs AS job
WHERE part.job_id = job.id AND job.status IN ('done', 'failed', 'cancelled');
