-- Collections take turns at the job workers (sql/queries/jobs.sql claim_job): when each
-- was last served, and how many jobs each has waiting, read by collection.
CREATE INDEX jobs_by_collection_idx ON rag.jobs (collection_id, started_at);
CREATE INDEX jobs_waiting_by_collection_idx ON rag.jobs (collection_id)
    WHERE status IN ('queued', 'running');
