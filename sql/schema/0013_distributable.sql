-- Every table of the schema can be distributed by Citus, and the bookkeeping triggers
-- work on one node and on a Citus worker alike (app/db/distribution.py distributes the
-- tables when the database has the citus extension):
--
--  * rag.collection_counts: each collection's chunk and token counts, kept by the
--    triggers (rag.collections held them until now). Per collection, so that on Citus it
--    lives beside the collection's chunks, where the triggers that keep it run: the
--    collections themselves are a reference table (on every node), whose rows a trigger
--    on one worker must not write;
--  * rag.documents: its primary key holds collection_id (every key of a distributed
--    table holds its distribution column);
--  * the triggers name the tables they write through rag.sibling_table: the table itself
--    on one node; on a Citus worker, where a trigger fires on a shard (rag.chunks_102008)
--    and sees shards, the shard of that table beside it (same hash range). They run their
--    statements with EXECUTE, once per statement of the writer (once per row for a text
--    update), which costs a plan each;
--  * a space's vector table keeps its vectors inline (STORAGE PLAIN, up to 2,000
--    dimensions) on the table itself, which new partitions inherit: Citus cannot alter
--    the column storage of a partition once distributed.

SET CONSTRAINTS ALL IMMEDIATE;

CREATE TABLE rag.collection_counts (
    collection_id integer PRIMARY KEY REFERENCES rag.collections (id) ON DELETE CASCADE,
    chunks        bigint NOT NULL DEFAULT 0 CHECK (chunks >= 0),
    tokens        bigint NOT NULL DEFAULT 0 CHECK (tokens >= 0)
);
INSERT INTO rag.collection_counts (collection_id, chunks, tokens)
SELECT id, chunks, tokens FROM rag.collections;
ALTER TABLE rag.collections DROP COLUMN chunks, DROP COLUMN tokens;

ALTER TABLE rag.chunks DROP CONSTRAINT chunks_document_id_collection_id_fkey;
ALTER TABLE rag.documents DROP CONSTRAINT documents_id_collection_key;
ALTER TABLE rag.documents DROP CONSTRAINT documents_pkey;
ALTER TABLE rag.documents ADD PRIMARY KEY (id, collection_id);
ALTER TABLE rag.chunks ADD CONSTRAINT chunks_document_id_collection_id_fkey
    FOREIGN KEY (document_id, collection_id) REFERENCES rag.documents (id, collection_id)
    ON DELETE CASCADE;

DO $$
DECLARE
    v_space rag.spaces;
BEGIN
    FOR v_space IN SELECT * FROM rag.spaces WHERE dims <= 2000 ORDER BY id LOOP
        EXECUTE format('ALTER TABLE rag.%I ALTER COLUMN embedding SET STORAGE PLAIN',
                       'vectors_' || v_space.id);
    END LOOP;
END
$$;

-- The table p_name of schema rag as a trigger on p_table writes it: the table itself, or,
-- when p_table is a Citus shard, the shard of p_name with the same hash range (a
-- reference table's only shard).
CREATE FUNCTION rag.sibling_table(p_table regclass, p_name text)
RETURNS text
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_shard bigint;
BEGIN
    IF to_regclass('pg_catalog.pg_dist_shard') IS NOT NULL THEN
        EXECUTE $q$
            SELECT o.shardid
            FROM pg_class t
            JOIN pg_dist_shard s
              ON s.shardid = (regexp_match(t.relname, '_(\d+)$'))[1]::bigint
             AND t.relname = (SELECT relname FROM pg_class WHERE oid = s.logicalrelid)
                             || '_' || s.shardid
            JOIN pg_dist_shard o
              ON o.logicalrelid = format('rag.%I', $2)::regclass
             AND (o.shardminvalue = s.shardminvalue OR o.shardminvalue IS NULL)
            WHERE t.oid = $1$q$
        INTO v_shard USING p_table, p_name;
    END IF;
    RETURN format('rag.%I', CASE WHEN v_shard IS NULL THEN p_name
                                 ELSE p_name || '_' || v_shard END);
END
$$;

-- The bookkeeping of 0009, with the counts in rag.collection_counts and every table named
-- through rag.sibling_table.
CREATE OR REPLACE FUNCTION rag.chunks_inserted() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    v_counts text := rag.sibling_table(TG_RELID, 'collection_counts');
BEGIN
    EXECUTE format('SELECT 1 FROM %s WHERE collection_id IN
                        (SELECT DISTINCT collection_id FROM new_rows)
                    ORDER BY collection_id FOR UPDATE', v_counts);
    EXECUTE format($q$
    WITH terms AS MATERIALIZED (
        SELECT n.collection_id, n.id AS chunk_pk, t.term, t.tf,
               sum(t.tf) OVER (PARTITION BY n.id) AS len
        FROM new_rows n, rag.chunk_terms(n.title, n.chunk) t),
    postings AS (
        INSERT INTO %1$s (collection_id, term, chunk_pk, tf, len)
        SELECT collection_id, term, chunk_pk, tf, len FROM terms),
    frequencies AS (
        INSERT INTO %2$s AS t (collection_id, term, df)
        SELECT collection_id, term, count(*) FROM terms
        GROUP BY collection_id, term ORDER BY term, collection_id
        ON CONFLICT (term, collection_id) DO UPDATE SET df = t.df + excluded.df),
    added AS (
        SELECT r.collection_id, count(*) AS chunks,
               (SELECT coalesce(sum(tf), 0) FROM terms t
                WHERE t.collection_id = r.collection_id) AS tokens
        FROM new_rows r GROUP BY r.collection_id)
    UPDATE %3$s c SET chunks = c.chunks + a.chunks, tokens = c.tokens + a.tokens
    FROM added a WHERE c.collection_id = a.collection_id$q$,
        rag.sibling_table(TG_RELID, 'lex_postings'), rag.sibling_table(TG_RELID, 'lex_terms'),
        v_counts);
    EXECUTE format($q$
    INSERT INTO %s AS t (collection_id, tag, chunks)
    SELECT collection_id, tag, count(*) FROM new_rows, unnest(tags) AS tag
    GROUP BY collection_id, tag ORDER BY tag, collection_id
    ON CONFLICT (tag, collection_id) DO UPDATE SET chunks = t.chunks + excluded.chunks$q$,
        rag.sibling_table(TG_RELID, 'tag_counts'));
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION rag.chunks_deleted() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    v_counts text := rag.sibling_table(TG_RELID, 'collection_counts');
    v_space integer;
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
        WHERE p.term = o.term AND p.chunk_pk = o.chunk_pk AND p.collection_id = o.collection_id),
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
        v_counts);
    EXECUTE format($q$
    UPDATE %s t SET chunks = t.chunks - gone.n
    FROM (SELECT collection_id, tag, count(*) AS n FROM old_rows, unnest(tags) AS tag
          GROUP BY collection_id, tag ORDER BY tag, collection_id) gone
    WHERE t.tag = gone.tag AND t.collection_id = gone.collection_id$q$,
        rag.sibling_table(TG_RELID, 'tag_counts'));
    FOR v_space IN SELECT id FROM rag.spaces ORDER BY id LOOP
        EXECUTE format('DELETE FROM %s v USING old_rows o
                        WHERE v.chunk_pk = o.id AND v.collection_id = o.collection_id',
                       rag.sibling_table(TG_RELID, 'vectors_' || v_space));
    END LOOP;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION rag.chunk_text_updated() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    v_counts text := rag.sibling_table(TG_RELID, 'collection_counts');
    v_postings text := rag.sibling_table(TG_RELID, 'lex_postings');
    v_terms text := rag.sibling_table(TG_RELID, 'lex_terms');
    v_old_len integer;
    v_new_len integer;
BEGIN
    EXECUTE format('SELECT 1 FROM %s WHERE collection_id = $1 FOR UPDATE', v_counts)
    USING new.collection_id;
    SELECT coalesce(sum(tf), 0) INTO v_old_len FROM rag.chunk_terms(old.title, old.chunk);
    SELECT coalesce(sum(tf), 0) INTO v_new_len FROM rag.chunk_terms(new.title, new.chunk);
    EXECUTE format('DELETE FROM %s WHERE chunk_pk = $1 AND collection_id = $2
                      AND term IN (SELECT term FROM rag.chunk_terms($3, $4))', v_postings)
    USING old.id, old.collection_id, old.title, old.chunk;
    EXECUTE format('UPDATE %s t SET df = t.df - 1 FROM rag.chunk_terms($1, $2) o
                    WHERE t.term = o.term AND t.collection_id = $3', v_terms)
    USING old.title, old.chunk, old.collection_id;
    EXECUTE format('INSERT INTO %s (collection_id, term, chunk_pk, tf, len)
                    SELECT $1, term, $2, tf, $3 FROM rag.chunk_terms($4, $5)', v_postings)
    USING new.collection_id, new.id, v_new_len, new.title, new.chunk;
    EXECUTE format('INSERT INTO %s AS t (collection_id, term, df)
                    SELECT $1, term, 1 FROM rag.chunk_terms($2, $3) ORDER BY term
                    ON CONFLICT (term, collection_id) DO UPDATE SET df = t.df + 1', v_terms)
    USING new.collection_id, new.title, new.chunk;
    EXECUTE format('UPDATE %s SET tokens = tokens - $1 + $2 WHERE collection_id = $3',
                   v_counts)
    USING v_old_len, v_new_len, new.collection_id;
    RETURN NULL;
END
$$;
