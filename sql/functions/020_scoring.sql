-- The parts of the score that do not depend on a vector: age and recency.
--
-- Errors raised by api.* functions use two SQLSTATEs of their own, which the service
-- maps to HTTP statuses: RG400 (bad argument, 400) and RG404 (unknown object, 404).
-- DETAIL, when present, is a JSON object of extra fields for the error body.
--
-- Searches put these formulas into their statements as plain expressions (the two
-- *_sql functions below write them), so that planning a search never has to inline a
-- function call per row.

-- Age in days of c.created_at seen from p_now (an expression: epoch seconds); never
-- negative, so a chunk dated in the future scores like one created at p_now.
-- date_part() returns float8 (extract() returns numeric, much slower per row).
CREATE OR REPLACE FUNCTION api.days_old_sql(p_now text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT format('greatest(0, (%s - date_part(''epoch'', c.created_at)) / 86400.0)', p_now)
$$;

-- Recency in [0, 1] from an age in days (p_days and p_scale are SQL expressions).
-- Every function is 1 at age 0 and decreasing:
--   inverse      1 / (1 + days / scale)          (scale 1: the classic 1/(1+days_old))
--   exponential  0.5 ^ (days / scale)            (scale = half-life in days)
--   gaussian     0.5 ^ ((days / scale)^2)        (0.5 at scale days, bell-shaped)
--   linear       max(0, 1 - days / (2 * scale))  (0.5 at scale days, 0 at twice that)
CREATE OR REPLACE FUNCTION api.recency_sql(p_function text, p_scale text, p_days text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT CASE p_function
        WHEN 'inverse' THEN format('(1.0 / (1.0 + (%s) / %s))', p_days, p_scale)
        WHEN 'exponential' THEN format('power(0.5, (%s) / %s)', p_days, p_scale)
        WHEN 'gaussian' THEN format('power(0.5, ((%s) / %s) ^ 2)', p_days, p_scale)
        WHEN 'linear' THEN format('greatest(0.0, 1.0 - (%s) / (2.0 * %s))', p_days, p_scale)
    END
$$;

-- The largest age (days) whose recency is still >= p_min: the inverse of the functions
-- above. Used to turn a score bound into a created_at range. NULL means "any age";
-- a negative result means "no age" (p_min > 1).
CREATE OR REPLACE FUNCTION api.recency_max_days(p_min float8, p_function text, p_scale float8)
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT CASE
        WHEN p_min <= 0 THEN NULL
        WHEN p_min > 1 THEN -1
        ELSE CASE p_function
            WHEN 'inverse' THEN p_scale * (1.0 / p_min - 1.0)
            WHEN 'exponential' THEN p_scale * ln(1.0 / p_min) / ln(2.0)
            WHEN 'gaussian' THEN p_scale * sqrt(ln(1.0 / p_min) / ln(2.0))
            WHEN 'linear' THEN 2.0 * p_scale * (1.0 - p_min)
        END
    END
$$;

CREATE OR REPLACE FUNCTION api.raise_bad_argument(p_message text, p_detail jsonb DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'RG400', MESSAGE = p_message,
        DETAIL = coalesce(p_detail::text, '');
END
$$;
