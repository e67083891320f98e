CREATE FUNCTION api.recency_functions()
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT ARRAY['inverse', 'exponential', 'gaussian', 'linear'] $$;

CREATE FUNCTION api.recency(p_function text, p_scale float8, p_now float8,
                            p_created timestamptz)
RETURNS float8
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
    SELECT CASE p_function
        WHEN 'inverse' THEN 1.0 / (1.0 + greatest(0, (p_now - date_part('epoch', p_created)) / 86400.0) / p_scale)
        WHEN 'exponential' THEN power(0.5, least(1000.0, greatest(0, (p_now - date_part('epoch', p_created)) / 86400.0) / p_scale))
        WHEN 'gaussian' THEN power(0.5, least(1000.0, (greatest(0, (p_now - date_part('epoch', p_created)) / 86400.0) / p_scale) ^ 2))
        WHEN 'linear' THEN greatest(0.0, 1.0 - greatest(0, (p_now - date_part('epoch', p_created)) / 86400.0) / (2.0 * p_scale))
    END
$$;

-- NULL means "any age"; a negative result means "no age" (p_min > 1).
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
