-- Recency: how a chunk's score decays with its age.

-- The recency functions, by name (app/recency.py offers exactly these; a test checks).
-- Every one is 1 at age 0 and decreasing; the scale is in days:
--   inverse      1 / (1 + days / scale)          (scale 1: the classic 1/(1+days_old))
--   exponential  0.5 ^ (days / scale)            (scale = half-life)
--   gaussian     0.5 ^ ((days / scale)^2)        (0.5 at scale days, bell-shaped)
--   linear       max(0, 1 - days / (2 * scale))  (0.5 at scale days, 0 at twice that)
CREATE FUNCTION api.recency_functions()
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT ARRAY['inverse', 'exponential', 'gaussian', 'linear'] $$;

-- Age in days of a chunk created at p_created, seen from p_now (epoch seconds); never
-- negative, so a chunk dated in the future scores like one created at p_now.
-- date_part() returns float8 (extract() returns numeric, much slower per row).
CREATE FUNCTION api.days_old(p_now float8, p_created timestamptz)
RETURNS float8
LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT greatest(0, (p_now - date_part('epoch', p_created)) / 86400.0) $$;

-- Recency in [0, 1] of a chunk created at p_created, seen from p_now (epoch seconds).
-- Each branch writes the age out again instead of taking it as an argument: the planner
-- inlines a function into a statement only when its arguments are plain columns and
-- parameters, and this one runs for every chunk a search scores; and STABLE, as
-- date_part() on a timestamptz is (an IMMUTABLE function calling it is not inlined).
-- 0.5^1000 (~1e-301) stands for any smaller power, which would underflow.
CREATE FUNCTION api.recency(p_function text, p_scale float8, p_now float8,
                            p_created timestamptz)
RETURNS float8
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
    SELECT CASE p_function
        WHEN 'inverse' THEN
            1.0 / (1.0 + greatest(0, (p_now - date_part('epoch', p_created)) / 86400.0) / p_scale)
        WHEN 'exponential' THEN power(0.5, least(1000.0,
            greatest(0, (p_now - date_part('epoch', p_created)) / 86400.0) / p_scale))
        WHEN 'gaussian' THEN power(0.5, least(1000.0,
            (greatest(0, (p_now - date_part('epoch', p_created)) / 86400.0) / p_scale) ^ 2))
        WHEN 'linear' THEN greatest(0.0, 1.0 - greatest(
            0, (p_now - date_part('epoch', p_created)) / 86400.0) / (2.0 * p_scale))
    END
$$;

-- The largest age (days) whose recency is still >= p_min: the inverse of the functions
-- above, to turn a score bound into a created_at range. NULL means "any age"; a
-- negative result means "no age" (p_min > 1).
CREATE FUNCTION api.recency_max_days(p_min float8, p_function text, p_scale float8)
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
