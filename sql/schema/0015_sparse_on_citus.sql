-- A sparse space's term counts on a Citus cluster as on one node: the trigger that keeps
-- them (0014) names its tables through rag.sibling_table (on a worker, where it fires on
-- a shard, the shards beside it) and takes the collection's lock that chunk writes take
-- (its row of rag.collection_counts, 0013), so that concurrent writers to one collection
-- still never deadlock over terms.
CREATE OR REPLACE FUNCTION rag.sparse_vectors_changed() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    v_changed text := CASE TG_OP
        WHEN 'INSERT' THEN 'SELECT collection_id, embedding, 1 AS sign FROM new_vectors'
        WHEN 'DELETE' THEN 'SELECT collection_id, embedding, -1 AS sign FROM old_vectors'
        ELSE 'SELECT collection_id, embedding, 1 AS sign FROM new_vectors
              UNION ALL SELECT collection_id, embedding, -1 FROM old_vectors' END;
BEGIN
    EXECUTE format('SELECT 1 FROM %s WHERE collection_id IN
                        (SELECT collection_id FROM (%s) c)
                    ORDER BY collection_id FOR UPDATE',
                   rag.sibling_table(TG_RELID, 'collection_counts'), v_changed);
    EXECUTE format(
        'WITH changed AS MATERIALIZED (%s),
         terms AS (
             INSERT INTO %s AS t (space_id, collection_id, term, vectors)
             SELECT $1, collection_id, term, sum(sign)
             FROM changed, rag.sparse_term_ids(embedding) AS term
             GROUP BY collection_id, term ORDER BY collection_id, term
             ON CONFLICT (space_id, collection_id, term)
             DO UPDATE SET vectors = t.vectors + excluded.vectors)
         INSERT INTO %s AS t (space_id, collection_id, vectors)
         SELECT $1, collection_id, sum(sign) FROM changed
         GROUP BY collection_id ORDER BY collection_id
         ON CONFLICT (space_id, collection_id) DO UPDATE SET vectors = t.vectors + excluded.vectors',
        v_changed, rag.sibling_table(TG_RELID, 'sparse_terms'),
        rag.sibling_table(TG_RELID, 'sparse_totals')) USING TG_ARGV[0]::integer;
    RETURN NULL;
END
$$;
