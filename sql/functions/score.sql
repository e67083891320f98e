-- The ranking rule: the one place a chunk's score is defined. Every strategy (scan,
-- threshold, fusion) and every explanation computes it with these functions.
--
--   score = w_cos * sem + w_lex * lex + w_rec * rec + w_sig * sig
--   sem   = sum over the plan's spaces i of space_weights[i] * (1 - cosine distance)
--           (a chunk with no vector in a space contributes 0 for that space)
--   lex   = normalised BM25 of the query text (lexical.sql); 0 without a query term
--   rec   = api.recency(function, scale, now, created_at), in [0, 1]
--   sig   = rag.chunks.signal, in [0, 1]
--
-- Eligibility: with min_similarity, a chunk whose sem is lower has no score; with a
-- keyword part and no semantic part (keyword_only), neither has a chunk holding none of
-- the query's terms; with min_score, a chunk scoring less. The top-k are the k best
-- eligible chunks that pass the filter, ties broken by chunk_id; with max_per_source
-- m > 0, walking that ranking a chunk is taken unless m better chunks of its source
-- (api.source_key: src, or doc_id when src is empty) were taken, so the result still has
-- k rows whenever k eligible chunks remain under the cap.
--
-- These are SQL functions that the planner inlines into each statement (STABLE where
-- they read a timestamptz's epoch: see api.recency). The rule is written once, on plain
-- values (api.static_terms, api.score_terms); api.static_score and api.score apply it
-- with a plan's values, and api.score_sql writes it into a statement planned for one
-- request with those values as constants, which the planner folds (a full scan then
-- evaluates little more than the arithmetic per row).

CREATE FUNCTION api.rec(p api.search_plan, p_created timestamptz)
RETURNS float8
LANGUAGE sql STABLE
AS $$ SELECT api.recency(p.rec_function, p.rec_scale, p.now_epoch, p_created) $$;

-- The part of the score no vector and no keyword is needed for.
CREATE FUNCTION api.static_terms(
    p_w_rec float8, p_w_sig float8, p_rec_function text, p_rec_scale float8, p_now float8,
    p_created timestamptz, p_signal float8
) RETURNS float8
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
    SELECT CASE WHEN p_w_rec = 0 THEN 0
                ELSE p_w_rec * api.recency(p_rec_function, p_rec_scale, p_now, p_created) END
         + CASE WHEN p_w_sig = 0 THEN 0 ELSE p_w_sig * p_signal END
$$;

CREATE FUNCTION api.score_terms(
    p_w_cos float8, p_w_lex float8, p_w_rec float8, p_w_sig float8, p_rec_function text,
    p_rec_scale float8, p_now float8,
    p_sem float8, p_lex float8, p_created timestamptz, p_signal float8
) RETURNS float8
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
    SELECT p_w_cos * coalesce(p_sem, 0) + p_w_lex * coalesce(p_lex, 0)
         + api.static_terms(p_w_rec, p_w_sig, p_rec_function, p_rec_scale, p_now, p_created,
                            p_signal)
$$;

CREATE FUNCTION api.static_score(p api.search_plan, p_created timestamptz, p_signal float8)
RETURNS float8
LANGUAGE sql STABLE
AS $$
    SELECT api.static_terms(p.w_rec, p.w_sig, p.rec_function, p.rec_scale, p.now_epoch,
                            p_created, p_signal)
$$;

CREATE FUNCTION api.score(
    p api.search_plan, p_sem float8, p_lex float8, p_created timestamptz, p_signal float8
) RETURNS float8
LANGUAGE sql STABLE
AS $$
    SELECT api.score_terms(p.w_cos, p.w_lex, p.w_rec, p.w_sig, p.rec_function, p.rec_scale,
                           p.now_epoch, p_sem, p_lex, p_created, p_signal)
$$;

-- api.score of chunk c (c.created_at, c.signal) as SQL text, the plan's values written in
-- as constants; p_sem and p_lex are SQL expressions. Numbers are written in full (a
-- client's extra_float_digits must not round them: the scores must equal api.score's).
CREATE FUNCTION api.score_sql(p api.search_plan, p_sem text, p_lex text)
RETURNS text
LANGUAGE sql IMMUTABLE
SET extra_float_digits = 3
AS $$
    SELECT format('api.score_terms(%s::float8, %s::float8, %s::float8, %s::float8, %L, '
                  '%s::float8, %s::float8, %s, %s, c.created_at, c.signal)',
                  quote_literal(p.w_cos), quote_literal(p.w_lex), quote_literal(p.w_rec),
                  quote_literal(p.w_sig), p.rec_function, quote_literal(p.rec_scale),
                  quote_literal(p.now_epoch), p_sem, p_lex)
$$;

-- The score if the chunk is eligible (p_matched: it holds a query term), else NULL.
CREATE FUNCTION api.eligible_terms(
    p_min_similarity float8, p_keyword_only boolean, p_min_score float8,
    p_score float8, p_sem float8, p_matched boolean
) RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT CASE WHEN (p_min_similarity IS NULL OR coalesce(p_sem, 0) >= p_min_similarity)
                 AND (NOT p_keyword_only OR p_matched)
                 AND (p_min_score IS NULL OR p_score >= p_min_score)
                THEN p_score END
$$;

CREATE FUNCTION api.eligible_score(
    p api.search_plan, p_score float8, p_sem float8, p_matched boolean
) RETURNS float8
LANGUAGE sql IMMUTABLE
AS $$
    SELECT api.eligible_terms(p.min_similarity, p.keyword_only, p.min_score, p_score,
                              p_sem, p_matched)
$$;

-- What max_per_source counts.
CREATE FUNCTION api.source_key(p_src text, p_doc_id text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT coalesce(nullif(p_src, ''), p_doc_id) $$;

-- The k best of scored candidates under the plan's cap, best first: their positions
-- in the given arrays (NULL scores are not eligible).
CREATE FUNCTION api.best_positions(
    p api.search_plan, p_scores float8[], p_chunk_ids text[], p_sources text[], p_k integer
) RETURNS integer[]
LANGUAGE plpgsql STABLE
AS $$
BEGIN
    IF p.max_per_source = 0 THEN
        RETURN ARRAY(
            SELECT u.n FROM unnest(p_scores, p_chunk_ids) WITH ORDINALITY AS u(s, cid, n)
            WHERE u.s IS NOT NULL ORDER BY u.s DESC, u.cid LIMIT p_k);
    END IF;
    RETURN ARRAY(
        SELECT n FROM (
            SELECT u.n, u.s, u.cid,
                   row_number() OVER (PARTITION BY u.src ORDER BY u.s DESC, u.cid) AS nth
            FROM unnest(p_scores, p_chunk_ids, p_sources) WITH ORDINALITY AS u(s, cid, src, n)
            WHERE u.s IS NOT NULL) ranked
        WHERE nth <= p.max_per_source
        ORDER BY s DESC, cid LIMIT p_k);
END
$$;
