-- name: topk_weighted
SELECT api.rag_topk_weighted(
    p_vectors => %(vectors)b, p_spaces => %(spaces)s::text[],
    p_space_weights => %(space_weights)s::float8[], p_k => %(k)s::integer,
    p_w_cos => %(w_cos)s::float8, p_w_rec => %(w_rec)s::float8, p_w_sig => %(w_sig)s::float8,
    p_filters => %(filters)s, p_options => %(options)s, p_w_lex => %(w_lex)s::float8,
    p_query => %(query)s::text, p_collection => %(collection)s::text);

-- name: explain_chunk
SELECT api.explain_chunk(
    p_vectors => %(vectors)b, p_spaces => %(spaces)s::text[],
    p_space_weights => %(space_weights)s::float8[],
    p_w_cos => %(w_cos)s::float8, p_w_rec => %(w_rec)s::float8, p_w_sig => %(w_sig)s::float8,
    p_filters => %(filters)s, p_options => %(options)s, p_chunk_id => %(chunk_id)s::text,
    p_w_lex => %(w_lex)s::float8, p_query => %(query)s::text,
    p_collection => %(collection)s::text);

-- name: space_topk
SELECT api.space_topk(
    p_space => %(space)s::text, p_vector => %(vector)b, p_k => %(k)s::integer,
    p_min_similarity => %(min_similarity)s::float8, p_filters => %(filters)s,
    p_options => %(options)s, p_collection => %(collection)s::text);

-- name: chunk_vectors
SELECT chunk_id, embedding
FROM api.chunk_vectors(%(space)s, %(chunk_ids)s, api.collection_id(%(collection)s));
