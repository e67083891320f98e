-- Every stored vector of one document, with its space name (for GET ?include_embeddings).
CREATE FUNCTION api.document_vectors(p_document_id bigint, p_collection_id integer)
RETURNS TABLE (chunk_id text, space text, embedding vector)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_space rag.spaces;
BEGIN
    FOR v_space IN SELECT * FROM rag.spaces ORDER BY id LOOP
        RETURN QUERY EXECUTE format(
            'SELECT c.chunk_id, %L::text, v.embedding::vector
             FROM rag.chunks c JOIN rag.%I v ON v.chunk_pk = c.id AND v.collection_id = $2
             WHERE c.document_id = $1 AND c.collection_id = $2 ORDER BY c.ordinal',
            v_space.name, api.vector_table(v_space.id))
        USING p_document_id, p_collection_id;
    END LOOP;
END
$$;

-- The vectors of some chunks in one space (a chunk with none there is left out).
CREATE FUNCTION api.chunk_vectors(p_space text, p_chunk_ids text[], p_collection_id integer)
RETURNS TABLE (chunk_id text, embedding vector)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_space_id integer := (SELECT id FROM rag.spaces WHERE name = p_space);
BEGIN
    IF v_space_id IS NULL THEN
        PERFORM api.raise_invalid_space(p_space);
    END IF;
    RETURN QUERY EXECUTE format(
        'SELECT c.chunk_id, v.embedding::vector
         FROM rag.chunks c JOIN rag.%I v ON v.chunk_pk = c.id AND v.collection_id = $2
         WHERE c.chunk_id = ANY ($1) AND c.collection_id = $2',
        api.vector_table(v_space_id))
    USING p_chunk_ids, p_collection_id;
END
$$;
