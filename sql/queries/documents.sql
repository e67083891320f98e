-- name: chunk_owner_conflicts
-- A chunk_id of the batch that is stored under a document outside the batch.
SELECT chunk_id, doc_id FROM rag.chunks
WHERE chunk_id = ANY(%s::text[]) AND doc_id <> ALL(%s::text[])
LIMIT 1;

-- name: upsert_documents
INSERT INTO rag.documents AS d (doc_id, src, title, category, metadata, tags)
SELECT r.doc_id, coalesce(r.src, ''), coalesce(r.title, ''), r.category,
       coalesce(r.metadata, '{}'), ARRAY(SELECT jsonb_array_elements_text(r.tags))
FROM jsonb_to_recordset(%s::jsonb)
     AS r(doc_id text, src text, title text, category text, metadata jsonb, tags jsonb)
ON CONFLICT (doc_id) DO UPDATE
SET src = excluded.src, title = excluded.title, category = excluded.category,
    metadata = excluded.metadata, tags = excluded.tags, updated_at = now()
RETURNING d.id, d.doc_id;

-- name: delete_document_chunks
WITH gone AS (DELETE FROM rag.chunks WHERE document_id = ANY(%s::bigint[]) RETURNING 1)
SELECT count(*) FROM gone;

-- name: reserve_chunk_ids
SELECT nextval(pg_get_serial_sequence('rag.chunks', 'id')) FROM generate_series(1, %s);

-- name: copy_chunks
COPY rag.chunks (id, document_id, chunk_id, doc_id, src, title, ordinal, chunk,
                 created_at, volume, confidence, signal_given, model, tags, metadata)
FROM STDIN (FORMAT BINARY);

-- name: copy_vectors
COPY {table} (chunk_pk, embedding) FROM STDIN (FORMAT BINARY);

-- name: get_document
SELECT id, doc_id, src, title, category, metadata, tags, created_at, updated_at
FROM rag.documents WHERE doc_id = %s;

-- name: document_chunks
SELECT c.chunk_id, c.ordinal, c.chunk, c.created_at, c.volume, c.confidence, c.scale,
       c.signal, c.signal_given IS NOT NULL AS signal_pinned, c.model, c.tags, c.metadata
FROM rag.chunks c WHERE c.document_id = %s ORDER BY c.ordinal;

-- name: document_vectors
SELECT chunk_id, space, embedding FROM api.document_vectors(%s);

-- name: delete_document
WITH doc AS (DELETE FROM rag.documents WHERE doc_id = %s RETURNING id)
SELECT (SELECT count(*) FROM rag.chunks c, doc WHERE c.document_id = doc.id),
       EXISTS (SELECT 1 FROM doc);
