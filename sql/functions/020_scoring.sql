-- The parts of the score that do not depend on a vector.
--
-- Errors raised by api.* functions use two SQLSTATEs of their own, which the service
-- maps to HTTP statuses: RG400 (bad argument, 400) and RG404 (unknown object, 404).
-- DETAIL, when present, is a JSON object of extra fields for the error body.

-- Age in days of a timestamp, seen from p_now (epoch seconds); never negative, so a
-- chunk dated in the future scores like one created at p_now.
-- date_part() returns float8; extract() returns numeric, which is much slower per row.
-- STABLE like date_part(text, timestamptz) itself: an IMMUTABLE label on a STABLE body
-- would stop the planner from inlining the function into the scoring expression.
CREATE OR REPLACE FUNCTION api.days_old(p_created_at timestamptz, p_now float8)
RETURNS float8
LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT greatest(0, (p_now - date_part('epoch', p_created_at)) / 86400.0) $$;

-- Recency in [0, 1] from an age in days. Every function is 1 at age 0 and decreasing:
--   inverse      1 / (1 + days / scale)          (scale 1: the classic 1/(1+days_old))
--   exponential  0.5 ^ (days / scale)            (scale = half-life in days)
--   gaussian     0.5 ^ ((days / scale)^2)        (0.5 at scale days, bell-shaped)
--   linear       max(0, 1 - days / (2 * scale))  (0.5 at scale days, 0 at twice that)
-- A simple SQL function, so the planner inlines it and folds the CASE away.
CREATE OR REPLACE FUNCTION api.recency(p_days float8, p_function text, p_scale float8)
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT CASE p_function
        WHEN 'inverse' THEN 1.0 / (1.0 + p_days / p_scale)
        WHEN 'exponential' THEN power(0.5, p_days / p_scale)
        WHEN 'gaussian' THEN power(0.5, (p_days / p_scale) ^ 2)
        WHEN 'linear' THEN greatest(0.0, 1.0 - p_days / (2.0 * p_scale))
    END
$$;

-- The largest age (days) whose recency is still >= p_min: the inverse of api.recency.
-- Used to turn a score bound into a created_at range. NULL means "any age".
CREATE OR REPLACE FUNCTION api.recency_max_days(p_min float8, p_function text, p_scale float8)
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT CASE
        WHEN p_min <= 0 THEN NULL
        WHEN p_min > 1 THEN -1
        ELSE CASE p_function
            WHEN 'inverse' THEN p_scale * (1.0 / p_min - 1.0)
            WHEN 'exponential' THEN p_scale * log(2.0, (1.0 / p_min)::numeric)::float8
            WHEN 'gaussian' THEN p_scale * sqrt(log(2.0, (1.0 / p_min)::numeric)::float8)
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
