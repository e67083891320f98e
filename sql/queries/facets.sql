-- name: facets
SELECT api.facets(
    p_collection => %(collection_id)s, p_filter => %(filter)b, p_filtered => %(filtered)s,
    p_keywords => %(keywords)b, p_kinds => %(kinds)s::text[],
    p_paths => %(paths)s::text[]::jsonpath[], p_collections => %(collections)s::text[],
    p_limit => %(limit)s, p_max_chunks => %(max_chunks)s);

-- name: text_order
-- Values in the order the facets sort their ties by.
SELECT v FROM unnest(%(values)s::text[]) AS v ORDER BY v;

-- name: jsonb_order
-- Metadata values (as JSON text) in the order the facets sort their ties by.
SELECT v::text FROM unnest(%(values)s::jsonb[]) AS v ORDER BY v;
