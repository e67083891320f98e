-- Keyword relevance: every chunk is indexed for BM25 at ingest (title + text, English
-- stemming and stop words), with the corpus statistics BM25 needs kept in the database.

-- The number of tokens of a tsvector (its positions): a chunk's length for BM25.
CREATE FUNCTION rag.tsvector_tokens(p_tsv tsvector)
RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT coalesce(sum(coalesce(array_length(positions, 1), 1)), 0)::integer
      FROM unnest(p_tsv) $$;

ALTER TABLE rag.chunks ADD COLUMN title text NOT NULL DEFAULT '';
UPDATE rag.chunks c SET title = d.title FROM rag.documents d WHERE d.id = c.document_id;

ALTER TABLE rag.chunks
    ADD COLUMN lex_tsv tsvector GENERATED ALWAYS AS
        (to_tsvector('english'::regconfig, title || ' ' || chunk)) STORED,
    ADD COLUMN lex_len integer GENERATED ALWAYS AS
        (rag.tsvector_tokens(to_tsvector('english'::regconfig, title || ' ' || chunk))) STORED;

CREATE INDEX chunks_lex_idx ON rag.chunks USING gin (lex_tsv);

-- Document frequency of every term, and the corpus size and total length, kept current
-- by statement-level triggers on rag.chunks (one aggregate per ingest batch).
CREATE TABLE rag.lex_terms (
    term text PRIMARY KEY,
    df   bigint NOT NULL CHECK (df >= 0)
);

CREATE TABLE rag.lex_stats (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    docs      bigint NOT NULL,
    tokens    bigint NOT NULL
);

INSERT INTO rag.lex_stats (docs, tokens)
SELECT count(*), coalesce(sum(lex_len), 0) FROM rag.chunks;

INSERT INTO rag.lex_terms (term, df)
SELECT lexeme, count(*) FROM rag.chunks, unnest(lex_tsv) GROUP BY lexeme;

-- Statement-level triggers keep both current: one aggregate per ingest statement (a COPY
-- of a whole batch), not one update per chunk. The statistics row is locked before any
-- term, so concurrent writers queue on it instead of deadlocking over terms.
CREATE FUNCTION rag.lex_count_statement() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE rag.lex_stats
        SET docs = docs + (SELECT count(*) FROM new_rows),
            tokens = tokens + (SELECT coalesce(sum(lex_len), 0) FROM new_rows);
        INSERT INTO rag.lex_terms AS t (term, df)
        SELECT lexeme, count(*) FROM new_rows, unnest(lex_tsv)
        GROUP BY lexeme ORDER BY lexeme
        ON CONFLICT (term) DO UPDATE SET df = t.df + excluded.df;
    ELSE
        UPDATE rag.lex_stats
        SET docs = docs - (SELECT count(*) FROM old_rows),
            tokens = tokens - (SELECT coalesce(sum(lex_len), 0) FROM old_rows);
        UPDATE rag.lex_terms t SET df = t.df - gone.n
        FROM (SELECT lexeme, count(*) AS n FROM old_rows, unnest(lex_tsv)
              GROUP BY lexeme ORDER BY lexeme) gone
        WHERE t.term = gone.lexeme;
    END IF;
    RETURN NULL;
END
$$;

-- A chunk whose text or title changes in place (ingest replaces chunks instead).
CREATE FUNCTION rag.lex_count_row() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    UPDATE rag.lex_stats SET tokens = tokens - old.lex_len + new.lex_len;
    UPDATE rag.lex_terms t SET df = t.df - 1
    FROM unnest(old.lex_tsv) u WHERE t.term = u.lexeme;
    INSERT INTO rag.lex_terms AS t (term, df)
    SELECT lexeme, 1 FROM unnest(new.lex_tsv) ORDER BY lexeme
    ON CONFLICT (term) DO UPDATE SET df = t.df + 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER chunks_lex_inserted AFTER INSERT ON rag.chunks
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION rag.lex_count_statement();
CREATE TRIGGER chunks_lex_deleted AFTER DELETE ON rag.chunks
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION rag.lex_count_statement();
CREATE TRIGGER chunks_lex_updated AFTER UPDATE OF chunk, title ON rag.chunks
    FOR EACH ROW WHEN (old.lex_tsv IS DISTINCT FROM new.lex_tsv)
    EXECUTE FUNCTION rag.lex_count_row();

-- Profiles may set the keyword/vector balance (the share of relevance given to vectors).
-- Checking deferred constraints now lets the table change in the transaction that
-- filled it (a fresh database migrates in one transaction).
SET CONSTRAINTS ALL IMMEDIATE;
ALTER TABLE rag.profile_versions
    ADD COLUMN hybrid_vector_weight float8 CHECK (hybrid_vector_weight BETWEEN 0 AND 1);
