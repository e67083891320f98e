-- The types the search functions pass each other: a request, validated and resolved
-- once (api.search_plan, built by api.search_plan() in 030_search_plan.sql), and its
-- filter (api.search_filter, built by api.make_filter() in 006_filters.sql).
-- The ranking rule they serve is written once, in 020_score.sql.

CREATE TYPE api.search_filter AS (
    collection_id  integer,
    doc_ids        text[],
    src_like       text,        -- src_prefix as an escaped LIKE pattern
    tags_any       text[],
    tags_all       text[],
    created_after  timestamptz, -- created_at >= this
    created_before timestamptz, -- created_at < this
    metadata       jsonpath     -- the metadata filter, compiled (api.metadata_path)
);

-- Fields in this order on purpose: the fixed-width ones that are never NULL come first,
-- so that statements reading them once per row (api.score and friends) find them at a
-- fixed offset; the variable-width and nullable ones follow.
CREATE TYPE api.search_plan AS (
    collection_id  integer,
    k              integer,     -- rows to rank (the caller's offset + k, or its pool)
    w_cos          float8,
    w_lex          float8,
    w_rec          float8,
    w_sig          float8,
    rec_scale      float8,      -- days
    now_epoch      float8,      -- ages are measured from this instant (epoch seconds)
    max_per_source integer,     -- 0: no cap
    keyword_only   boolean,     -- w_lex > 0 and w_cos = 0
    filtered       boolean,     -- a filter besides the collection
    bm25_k1        float8,
    bm25_b         float8,
    lex_avg_len    float8,
    ef_search      integer,
    rrf_k          integer,
    rrf_window     integer,
    scan_rows      integer,     -- the engine's knobs (api.search_defaults)
    region_budget  integer,
    region_ratio   integer,
    region_limit   integer,
    max_depth      integer,
    lex_limit      integer,
    sample_rows    integer,
    walk_cost      float8,
    rec_function   text,        -- one of api.recency_functions()
    fusion         text,        -- weighted | rrf
    strategy       text,        -- auto | scan | threshold
    space_ids      integer[],   -- the searched spaces, in request order
    space_names    text[],
    space_dims     integer[],
    space_weights  float8[],    -- summing to 1
    vectors        vector[],    -- one query vector per space
    lex_terms      text[],      -- the query's terms the collection holds
    lex_weights    float8[],    -- idf_t / sum of idf
    filter         api.search_filter,
    min_score      float8,
    min_similarity float8
);
