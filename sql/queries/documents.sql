-- name: chunk_owner_conflicts
-- A chunk_id of the batch that is stored under a document outside the batch (in the
-- collection, or any part of a split one).
SELECT chunk_id, doc_id FROM rag.chunks
WHERE collection_id = ANY(%(collections)s::integer[]) AND chunk_id = ANY(%(chunk_ids)s::text[])
  AND doc_id <> ALL(%(doc_ids)s::text[])
LIMIT 1;

-- name: upsert_documents
-- (updated_at from the row proposed: Citus runs no function that is not IMMUTABLE in the
-- DO UPDATE clause)
INSERT INTO rag.documents AS d (collection_id, doc_id, src, title, category, metadata, tags,
                                content_type, content_hash, updated_at)
SELECT %(collection)s, r.doc_id, coalesce(r.src, ''), coalesce(r.title, ''), r.category,
       coalesce(r.metadata, '{}'), ARRAY(SELECT jsonb_array_elements_text(r.tags)),
       r.content_type, decode(r.content_hash, 'hex'), now()
FROM jsonb_to_recordset(%(documents)s::jsonb)
     AS r(doc_id text, src text, title text, category text, metadata jsonb, tags jsonb,
          content_type text, content_hash text)
ON CONFLICT (doc_id, collection_id) DO UPDATE
SET src = excluded.src, title = excluded.title, category = excluded.category,
    metadata = excluded.metadata, tags = excluded.tags, content_type = excluded.content_type,
    content_hash = excluded.content_hash, updated_at = excluded.updated_at
RETURNING d.id, d.doc_id;

-- name: delete_document_chunks
WITH gone AS (DELETE FROM rag.chunks
              WHERE collection_id = %(collection)s AND document_id = ANY(%(documents)s::bigint[])
              RETURNING 1)
SELECT count(*) FROM gone;

-- name: reserve_chunk_ids
SELECT nextval('rag.chunk_pk_seq') FROM generate_series(1, %s);

-- name: copy_chunks
COPY rag.chunks (id, collection_id, document_id, chunk_id, doc_id, src, title, ordinal,
                 chunk, created_at, volume, confidence, signal_given, model, tags,
                 metadata, meta, inherits, content_hash, heading_path, char_start, char_end)
FROM STDIN (FORMAT BINARY);

-- name: copy_vectors
COPY {table} (collection_id, chunk_pk, {columns}) FROM STDIN (FORMAT BINARY);

-- name: get_document
SELECT d.id, d.collection_id, d.doc_id, d.src, d.title, d.category, d.metadata, d.tags,
       d.content_type, d.created_at, d.updated_at
FROM rag.documents d
WHERE d.doc_id = %(doc_id)s AND d.collection_id = %(collection)s;

-- name: document_chunks
SELECT c.chunk_id, c.ordinal, c.chunk, c.created_at, c.volume, c.confidence, c.scale,
       c.signal, c.signal_given IS NOT NULL AS signal_pinned, c.model, c.tags, c.metadata,
       c.heading_path, c.char_start, c.char_end
FROM rag.chunks c
WHERE c.document_id = %(document)s AND c.collection_id = %(collection)s
ORDER BY c.ordinal;

-- name: document_vectors
SELECT chunk_id, space, kind, embedding FROM api.document_vectors(%(document)s, %(collection)s);

-- name: document_to_delete
-- The document and how many chunks it has (counted before the delete: on Citus a
-- statement's deleting subquery runs first, so one statement would count none).
SELECT d.id, (SELECT count(*) FROM rag.chunks c
              WHERE c.document_id = d.id AND c.collection_id = %(collection)s)
FROM rag.documents d
WHERE d.collection_id = %(collection)s AND d.doc_id = %(doc_id)s;

-- name: delete_document
DELETE FROM rag.documents WHERE collection_id = %(collection)s AND id = %(document)s;

-- name: cached_vectors
-- Vectors an embedder made before, by the hash of the text it embedded.
SELECT text_hash, embedding, tokens FROM rag.embedding_cache
WHERE embedder = %(embedder)s AND text_hash = ANY(%(hashes)s::bytea[]);

-- name: cache_vector
INSERT INTO rag.embedding_cache (embedder, text_hash, embedding, tokens)
VALUES (%(embedder)s, %(hash)s, %(embedding)s, %(tokens)s)
ON CONFLICT (embedder, text_hash) DO NOTHING;

-- name: stored_sources
-- Which of these documents are stored from exactly this content (doc_id, hash in hex).
SELECT d.doc_id FROM rag.documents d
JOIN unnest(%(doc_ids)s::text[], %(hashes)s::text[]) AS f(doc_id, hash)
  ON f.doc_id = d.doc_id AND d.content_hash = decode(f.hash, 'hex')
WHERE d.collection_id = ANY(%(collections)s::integer[]);
