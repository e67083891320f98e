-- A chunk's metadata as filters read it: its document's metadata with the chunk's own keys
-- over it. A chunk with metadata of its own keeps that merged view in rag.chunks.meta; for
-- the others it is the document's, stored once in rag.documents (sql/schema/0011), and
-- read only when the document has any (inherits).
--
-- Searches pass the document's metadata in as a scalar subquery written where the chunk is
-- read (api.passes's third argument): the planner
-- inlines these functions into the statement, so the subquery runs only for the chunks
-- that need it, inside the statement's own plan.

CREATE FUNCTION api.chunk_meta(c rag.chunks, p_document_meta jsonb)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT coalesce(c.meta, CASE WHEN c.inherits THEN p_document_meta ELSE '{}' END) $$;

-- The same for one chunk, looking its document up (explanations).
CREATE FUNCTION api.chunk_meta(c rag.chunks)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
    SELECT api.chunk_meta(c, (SELECT d.metadata FROM rag.documents d
                              WHERE d.id = c.document_id AND d.collection_id = c.collection_id))
$$;
