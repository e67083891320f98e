-- A two-dimensional index over (created_at, signal), the two inputs of the part of the
-- score that needs no vector. The threshold search enumerates "every chunk whose
-- recency and signal alone could still reach the k-th score" as a union of boxes in
-- this plane (see api.region_boxes), which a GiST index answers in O(log n + matches).

-- Days since the epoch. IMMUTABLE (the epoch of a timestamptz does not depend on the
-- time zone), so it can appear in an index; lives in schema rag with the index.
CREATE FUNCTION rag.epoch_days(p_at timestamptz)
RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT date_part('epoch', p_at) / 86400.0 $$;

CREATE INDEX chunks_static_idx ON rag.chunks
    USING gist (point(rag.epoch_days(created_at), signal));
