-- Recency: how a chunk's score decays with its age.
--
-- The decay functions themselves (api.recency, api.recency_max_days, api.recency_functions)
-- are generated from their registry, app/recency.py, and applied right after this file.

-- Age in days of a chunk created at p_created, seen from p_now (epoch seconds); never
-- negative, so a chunk dated in the future scores like one created at p_now.
-- date_part() returns float8 (extract() returns numeric, much slower per row).
CREATE FUNCTION api.days_old(p_now float8, p_created timestamptz)
RETURNS float8
LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT greatest(0, (p_now - date_part('epoch', p_created)) / 86400.0) $$;
