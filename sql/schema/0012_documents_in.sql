-- Documents in: the service embeds text itself, in every space that has an embedder,
-- keeps what it embedded by content hash, and runs large inputs as jobs.
--
--  * rag.spaces.embedder: how a space's vectors are made (NULL: clients send them);
--    embedder_next: the embedder a running re-embed fills a shadow table with, until
--    the space switches to it at once;
--  * rag.chunks: the hash of the chunk's text and its position in its document (the
--    heading path and character offsets), for citing; rag.documents: the content type
--    and hash of the text or file a document was split from (ingest --resume skips a
--    file stored unchanged);
--  * rag.embedding_cache: vectors by embedder identity and the hash of the exact text
--    embedded, so unchanged text is never embedded twice (and a job that is killed
--    resumes without embedding again what it had embedded);
--  * rag.jobs, rag.job_items, rag.job_parts: the queue that workers of the service read
--    with FOR UPDATE SKIP LOCKED; an item is one document or file, its input stored in
--    parts of at most 1 MiB.

ALTER TABLE rag.spaces ADD COLUMN embedder jsonb, ADD COLUMN embedder_next jsonb;

ALTER TABLE rag.chunks
    ADD COLUMN content_hash bytea,
    ADD COLUMN heading_path text[],
    ADD COLUMN char_start integer,
    ADD COLUMN char_end integer;
ALTER TABLE rag.documents ADD COLUMN content_type text, ADD COLUMN content_hash bytea;

CREATE TABLE rag.embedding_cache (
    embedder   text NOT NULL,      -- the embedder's identity (model, dimensions, ...)
    text_hash  bytea NOT NULL,     -- sha256 of the exact text embedded
    embedding  vector NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (embedder, text_hash)
);

CREATE TABLE rag.jobs (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind             text NOT NULL CHECK (kind IN ('ingest', 'reembed')),
    collection_id    integer REFERENCES rag.collections (id) ON DELETE CASCADE,
    space_id         integer,
    status           text NOT NULL DEFAULT 'queued'
                     CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled')),
    params           jsonb NOT NULL DEFAULT '{}',
    cancel_requested boolean NOT NULL DEFAULT false,
    attempts         integer NOT NULL DEFAULT 0,
    worker           text,
    lease_until      timestamptz,
    items_total      integer NOT NULL DEFAULT 0,
    items_done       integer NOT NULL DEFAULT 0,
    items_failed     integer NOT NULL DEFAULT 0,
    chunks_total     bigint NOT NULL DEFAULT 0,
    chunks_embedded  bigint NOT NULL DEFAULT 0,
    chunks_cached    bigint NOT NULL DEFAULT 0,
    chunks_stored    bigint NOT NULL DEFAULT 0,
    error            text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    started_at       timestamptz,
    updated_at       timestamptz NOT NULL DEFAULT now(),
    finished_at      timestamptz
);
CREATE INDEX jobs_waiting_idx ON rag.jobs (id) WHERE status IN ('queued', 'running');

CREATE TABLE rag.job_items (
    job_id       bigint NOT NULL REFERENCES rag.jobs (id) ON DELETE CASCADE,
    ordinal      integer NOT NULL,
    name         text NOT NULL,          -- a doc_id or a file name
    content_type text,
    size         bigint NOT NULL DEFAULT 0,
    status       text NOT NULL DEFAULT 'queued'
                 CHECK (status IN ('queued', 'done', 'failed', 'cancelled')),
    doc_id       text,
    chunks       integer,
    error        text,
    finished_at  timestamptz,
    PRIMARY KEY (job_id, ordinal)
);

CREATE TABLE rag.job_parts (
    job_id  bigint NOT NULL,
    ordinal integer NOT NULL,
    seq     integer NOT NULL,
    data    bytea NOT NULL,
    PRIMARY KEY (job_id, ordinal, seq),
    FOREIGN KEY (job_id, ordinal) REFERENCES rag.job_items (job_id, ordinal) ON DELETE CASCADE
);
