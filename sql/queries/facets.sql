-- name: facets
SELECT api.facets(
    p_collection => %(collection_id)s, p_filter => %(filter)b, p_filtered => %(filtered)s,
    p_keywords => %(keywords)b, p_kinds => %(kinds)s::text[],
    p_paths => %(paths)s::text[]::jsonpath[], p_collections => %(collections)s::text[],
    p_limit => %(limit)s, p_max_chunks => %(max_chunks)s);
