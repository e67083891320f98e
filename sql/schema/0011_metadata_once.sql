-- A document's metadata stored once: in rag.documents, and no longer copied into the
-- chunks that have no metadata of their own. rag.chunks.meta (the merged view filters
-- read: the document's metadata with the chunk's own keys over it) is kept only for the
-- chunks that have metadata of their own, whose merged view differs from their
-- document's; for the others it is NULL and read from the document (api.chunk_meta).
--
--  * rag.chunks.inherits: the chunk's document has metadata (a chunk whose meta is NULL
--    and that does not inherit has none at all: nothing to look up);
--  * a GIN index (jsonb_path_ops) on the documents' metadata, beside the one on
--    rag.chunks.meta, so that a metadata filter reads an index on either side.

ALTER TABLE rag.chunks ADD COLUMN inherits boolean NOT NULL DEFAULT false;
ALTER TABLE rag.chunks ALTER COLUMN meta DROP NOT NULL, ALTER COLUMN meta DROP DEFAULT;
UPDATE rag.chunks c
SET inherits = d.metadata <> '{}',
    meta = CASE WHEN c.metadata = '{}' THEN NULL ELSE c.meta END
FROM rag.documents d
WHERE d.id = c.document_id AND d.collection_id = c.collection_id
  AND (d.metadata <> '{}' OR c.metadata = '{}');
CREATE INDEX documents_metadata_idx ON rag.documents USING gin (metadata jsonb_path_ops);
