-- Every stored vector of one document, with its space and kind (for GET
-- ?include_embeddings): as text, pgvector's form for dense ([1,2]) and sparse
-- ({1:0.5}/30522, indices from 1) vectors, a JSON array of token vectors for multivector.
CREATE FUNCTION api.document_vectors(p_document_id bigint, p_collection_id integer)
RETURNS TABLE (chunk_id text, space text, kind text, embedding text)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_space rag.spaces;
BEGIN
    FOR v_space IN SELECT * FROM rag.spaces ORDER BY id LOOP
        RETURN QUERY EXECUTE format(
            'SELECT c.chunk_id, %L::text, %L::text, %s
             FROM rag.chunks c JOIN rag.%I v ON v.chunk_pk = c.id AND v.collection_id = $2
             WHERE c.document_id = $1 AND c.collection_id = $2
             GROUP BY c.id, c.chunk_id, c.ordinal ORDER BY c.ordinal',
            v_space.name, v_space.kind,
            CASE v_space.kind WHEN 'multivector'
                 THEN 'json_agg(v.embedding::real[] ORDER BY v.ord)::text'
                 ELSE 'min(v.embedding::text)' END,
            api.vector_table(v_space.id))
        USING p_document_id, p_collection_id;
    END LOOP;
END
$$;

-- The vectors of some chunks in one dense space (a chunk with none there is left out).
CREATE FUNCTION api.chunk_vectors(p_space text, p_chunk_ids text[], p_collection_id integer)
RETURNS TABLE (chunk_id text, embedding vector)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_space_id integer := (SELECT id FROM rag.spaces WHERE name = p_space AND kind = 'dense');
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
