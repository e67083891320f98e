-- Planner statistics of a collection, kept fresh by the service after API writes.
--
-- The strategy choice reads counts kept at every commit (rag.collection_counts), but the
-- statements each strategy runs are planned from the statistics of ANALYZE: on a
-- partition never analyzed, the planner guesses, and the region read of the threshold
-- search scans the whole partition instead of its GiST box index (60,000 chunks loaded
-- through the API and searched at once: 140 ms a search against 15 ms after ANALYZE).
-- Autovacuum analyzes within a minute or so; the service does not wait for it.
--
--   api.statistics_due(collection, min_change, ratio): the collection's chunk count
--       differs from the one its chunk partition was last analyzed at (pg_class.reltuples;
--       -1: never) by more than min_change and more than ratio x that count.
--   api.refresh_statistics(collection, min_change, ratio): when due, ANALYZE every
--       partition of the collection (chunks, keyword postings, each space's vectors);
--       true when it did. One session at a time per collection: a second caller returns
--       false at once instead of queueing behind the first.

CREATE FUNCTION api.statistics_due(p_collection integer, p_min_change bigint, p_ratio float8)
RETURNS boolean
LANGUAGE sql STABLE
AS $$
    SELECT abs(c.chunks - greatest(k.reltuples, 0))
           > greatest(p_min_change, p_ratio * greatest(k.reltuples, 0))
    FROM rag.collection_counts c
    JOIN pg_class k ON k.oid = to_regclass(format('rag.%I', 'chunks_' || c.collection_id))
    WHERE c.collection_id = p_collection
$$;

CREATE FUNCTION api.refresh_statistics(
    p_collection integer, p_min_change bigint, p_ratio float8
)
RETURNS boolean
LANGUAGE plpgsql
AS $$
DECLARE
    v_partition text;
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('ragsearch.statistics'), p_collection)
       OR NOT coalesce(api.statistics_due(p_collection, p_min_change, p_ratio), false) THEN
        RETURN false;
    END IF;
    FOR v_partition IN SELECT api.collection_partitions(p_collection) LOOP
        EXECUTE format('ANALYZE rag.%I', v_partition);
    END LOOP;
    RETURN true;
END
$$;
