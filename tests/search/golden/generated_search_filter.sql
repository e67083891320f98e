CREATE TYPE api.search_filter AS (
    collection_id integer,
    doc_ids text[],
    src_like text,
    tags_any text[],
    tags_all text[],
    created_after timestamptz,
    created_before timestamptz,
    metadata jsonpath
);

-- Whether chunk c passes every given filter; p_document_meta: its document's metadata,
-- written at each call as the subquery (SELECT d.metadata FROM rag.documents d WHERE d.id =
-- c.document_id AND d.collection_id = c.collection_id), which runs only when needed.
-- Inlined into the searches' statements, where the filter is a parameter (the planner
-- reads c's columns straight from the row).
CREATE FUNCTION api.passes(f api.search_filter, c rag.chunks, p_document_meta jsonb)
RETURNS boolean
LANGUAGE sql IMMUTABLE
AS $$
    SELECT (f.doc_ids IS NULL OR coalesce(c.doc_id = ANY (f.doc_ids), false))
       AND (f.src_like IS NULL OR coalesce(c.src LIKE f.src_like, false))
       AND (f.tags_any IS NULL OR coalesce(c.tags && f.tags_any, false))
       AND (f.tags_all IS NULL OR coalesce(c.tags @> f.tags_all, false))
       AND (f.created_after IS NULL OR coalesce(c.created_at >= f.created_after, false))
       AND (f.created_before IS NULL OR coalesce(c.created_at < f.created_before, false))
       AND (f.metadata IS NULL OR coalesce(api.chunk_meta(c, p_document_meta) @@ f.metadata, false))
$$;

-- The same as SQL text over "c" (rag.chunks) and the filter in parameter p_param, with
-- only the filters given, so that a statement planned for one request can use the index
-- of each.
CREATE FUNCTION api.filter_sql(f api.search_filter, p_param text)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
    SELECT concat_ws(' AND ', format('c.collection_id = (%s).collection_id', p_param),
        CASE WHEN f.doc_ids IS NOT NULL THEN format('c.doc_id = ANY ((%1$s).doc_ids)', p_param) END,
        CASE WHEN f.src_like IS NOT NULL THEN format('c.src LIKE (%1$s).src_like', p_param) END,
        CASE WHEN f.tags_any IS NOT NULL THEN format('c.tags && (%1$s).tags_any', p_param) END,
        CASE WHEN f.tags_all IS NOT NULL THEN format('c.tags @> (%1$s).tags_all', p_param) END,
        CASE WHEN f.created_after IS NOT NULL THEN format('c.created_at >= (%1$s).created_after', p_param) END,
        CASE WHEN f.created_before IS NOT NULL THEN format('c.created_at < (%1$s).created_before', p_param) END,
        CASE WHEN f.metadata IS NOT NULL THEN format('(c.meta @@ (%1$s).metadata OR (c.meta IS NULL AND c.document_id = ANY (ARRAY(SELECT d.id FROM rag.documents d WHERE d.collection_id = (%1$s).collection_id AND d.metadata @@ (%1$s).metadata))))', p_param) END)
$$;

-- The filters chunk c fails, each checked on its own, by request field name.
CREATE FUNCTION api.failed_filters(f api.search_filter, c rag.chunks)
RETURNS text[]
LANGUAGE sql IMMUTABLE
AS $$
    SELECT array_remove(ARRAY[
        CASE WHEN f.doc_ids IS NOT NULL AND NOT coalesce(c.doc_id = ANY (f.doc_ids), false) THEN 'doc_ids' END,
        CASE WHEN f.src_like IS NOT NULL AND NOT coalesce(c.src LIKE f.src_like, false) THEN 'src_prefix' END,
        CASE WHEN f.tags_any IS NOT NULL AND NOT coalesce(c.tags && f.tags_any, false) THEN 'tags_any' END,
        CASE WHEN f.tags_all IS NOT NULL AND NOT coalesce(c.tags @> f.tags_all, false) THEN 'tags_all' END,
        CASE WHEN f.created_after IS NOT NULL AND NOT coalesce(c.created_at >= f.created_after, false) THEN 'created_after' END,
        CASE WHEN f.created_before IS NOT NULL AND NOT coalesce(c.created_at < f.created_before, false) THEN 'created_before' END,
        CASE WHEN f.metadata IS NOT NULL AND NOT coalesce(api.chunk_meta(c) @@ f.metadata, false) THEN 'filter' END], NULL)
$$;
