-- Bulk loads (ragsearch ingest FILE): how far each file has been stored. A batch's
-- documents and its progress row are written in one transaction, so after an
-- interruption `ragsearch ingest --resume FILE` continues at the first byte not stored.
CREATE TABLE rag.bulk_loads (
    file        text PRIMARY KEY,   -- the file's absolute path
    head_sha256 text NOT NULL,      -- of its first MiB: a different file is not resumed
    bytes_done  bigint NOT NULL DEFAULT 0,
    lines_done  bigint NOT NULL DEFAULT 0,
    documents   bigint NOT NULL DEFAULT 0,
    chunks      bigint NOT NULL DEFAULT 0,
    started_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz
);
