-- Every stored vector of one document, with its space name (for GET ?include_embeddings).
CREATE OR REPLACE FUNCTION api.document_vectors(p_document_id bigint)
RETURNS TABLE (chunk_id text, space text, embedding vector)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_space rag.spaces;
BEGIN
    FOR v_space IN SELECT * FROM rag.spaces ORDER BY id LOOP
        RETURN QUERY EXECUTE format(
            'SELECT c.chunk_id, %L::text, v.embedding::vector
             FROM rag.chunks c JOIN rag.%I v ON v.chunk_pk = c.id
             WHERE c.document_id = $1 ORDER BY c.ordinal',
            v_space.name, api.vector_table(v_space.id))
        USING p_document_id;
    END LOOP;
END
$$;

-- The vectors of some chunks in one space (a chunk with none there is left out).
CREATE OR REPLACE FUNCTION api.chunk_vectors(p_space text, p_chunk_ids text[])
RETURNS TABLE (chunk_id text, embedding vector)
LANGUAGE plpgsql STABLE
AS $$
BEGIN
    RETURN QUERY EXECUTE format(
        'SELECT c.chunk_id, v.embedding::vector
         FROM rag.chunks c JOIN rag.%I v ON v.chunk_pk = c.id
         WHERE c.chunk_id = ANY($1)',
        api.vector_table((SELECT id FROM rag.spaces WHERE name = p_space)))
    USING p_chunk_ids;
END
$$;
