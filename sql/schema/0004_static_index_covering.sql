-- The (created_at, signal) index also carries id, created_at and signal, so that the
-- threshold search can enumerate and check its region from the index alone (an
-- index-only scan) and touch a chunk's row only to score it.
DROP INDEX rag.chunks_static_idx;
CREATE INDEX chunks_static_idx ON rag.chunks
    USING gist (point(rag.epoch_days(created_at), signal)) INCLUDE (id, created_at, signal);
