-- A statement that deletes chunks has rag.chunks_deleted delete their keyword postings
-- and vectors, joined with the deleted rows: planned so, over the partitioned postings
-- and vector tables, the statements named no collection, and PostgreSQL planned them over
-- every collection's partition, locking each with its indexes (with 502 collections,
-- deleting one chunk held 3,057 locks and took 77-293 ms; a few writers at once, or one
-- past about 2,000 collections, filled a lock table of PostgreSQL's default size). Each
-- now names the collections the deleted rows belong to, as a value the planner sees
-- (EXECUTE ... USING), so that only their partitions are planned and locked
-- (docs/performance/many-collections.md).
CREATE OR REPLACE FUNCTION rag.chunks_deleted() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    v_counts text := rag.sibling_table(TG_RELID, 'collection_counts');
    v_space integer;
    v_collections integer[] := ARRAY(SELECT DISTINCT collection_id FROM old_rows);
BEGIN
    EXECUTE format('SELECT 1 FROM %s WHERE collection_id IN
                        (SELECT DISTINCT collection_id FROM old_rows)
                    ORDER BY collection_id FOR UPDATE', v_counts);
    EXECUTE format($q$
    WITH terms AS MATERIALIZED (
        SELECT o.collection_id, o.id AS chunk_pk, t.term, t.tf
        FROM old_rows o, rag.chunk_terms(o.title, o.chunk) t),
    postings AS (
        DELETE FROM %1$s p USING terms o
        WHERE p.collection_id = ANY ($1)
          AND p.term = o.term AND p.chunk_pk = o.chunk_pk AND p.collection_id = o.collection_id),
    frequencies AS (
        UPDATE %2$s t SET df = t.df - gone.n
        FROM (SELECT collection_id, term, count(*) AS n FROM terms
              GROUP BY collection_id, term ORDER BY term, collection_id) gone
        WHERE t.term = gone.term AND t.collection_id = gone.collection_id),
    removed AS (
        SELECT r.collection_id, count(*) AS chunks,
               (SELECT coalesce(sum(tf), 0) FROM terms t
                WHERE t.collection_id = r.collection_id) AS tokens
        FROM old_rows r GROUP BY r.collection_id)
    UPDATE %3$s c SET chunks = c.chunks - r.chunks, tokens = c.tokens - r.tokens
    FROM removed r WHERE c.collection_id = r.collection_id$q$,
        rag.sibling_table(TG_RELID, 'lex_postings'), rag.sibling_table(TG_RELID, 'lex_terms'),
        v_counts)
    USING v_collections;
    EXECUTE format($q$
    UPDATE %s t SET chunks = t.chunks - gone.n
    FROM (SELECT collection_id, tag, count(*) AS n FROM old_rows, unnest(tags) AS tag
          GROUP BY collection_id, tag ORDER BY tag, collection_id) gone
    WHERE t.tag = gone.tag AND t.collection_id = gone.collection_id$q$,
        rag.sibling_table(TG_RELID, 'tag_counts'));
    FOR v_space IN SELECT id FROM rag.spaces ORDER BY id LOOP
        EXECUTE format('DELETE FROM %s v USING old_rows o
                        WHERE v.collection_id = ANY ($1)
                          AND v.chunk_pk = o.id AND v.collection_id = o.collection_id',
                       rag.sibling_table(TG_RELID, 'vectors_' || v_space))
        USING v_collections;
    END LOOP;
    RETURN NULL;
END
$$;
