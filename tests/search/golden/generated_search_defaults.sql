-- What api.rag_topk_weighted uses for the options a SQL client leaves out (generated from
-- app/search/knobs.py).
CREATE FUNCTION api.search_defaults()
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT '{"bm25":{"b":0.75,"k1":1.2},"ef_search":100,"fusion":"weighted","lex_limit":20000,"max_depth":2560,"max_per_source":0,"region_budget":400,"region_limit":20000,"region_ratio":16,"rrf_k":60,"rrf_window":100,"sample_rows":2000,"scan_rows":2000,"strategy":"auto","walk_check":true,"walk_cost":4.0}'::jsonb $$;
