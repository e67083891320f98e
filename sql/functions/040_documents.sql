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
