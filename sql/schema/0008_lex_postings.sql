-- An inverted index for BM25: one row per (term, chunk) with the term's frequency in the
-- chunk. Scoring a query reads the postings of its terms only, instead of taking every
-- matching chunk's tsvector apart; the GIN index that found those chunks is no longer
-- read, so it goes.
CREATE TABLE rag.lex_postings (
    term     text NOT NULL,
    chunk_pk bigint NOT NULL,
    tf       integer NOT NULL,
    PRIMARY KEY (term, chunk_pk)
);

INSERT INTO rag.lex_postings (term, chunk_pk, tf)
SELECT lexeme, id, coalesce(array_length(positions, 1), 1)
FROM rag.chunks, unnest(lex_tsv);

DROP INDEX rag.chunks_lex_idx;

-- Kept like the corpus statistics: one statement per ingest batch, and a row trigger
-- for a chunk whose text or title changes in place. (These triggers fire after the
-- statistics ones, by name, so the statistics row is still locked first.)
CREATE FUNCTION rag.lex_postings_statement() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO rag.lex_postings (term, chunk_pk, tf)
        SELECT lexeme, id, coalesce(array_length(positions, 1), 1) FROM new_rows, unnest(lex_tsv);
    ELSE
        DELETE FROM rag.lex_postings p
        USING (SELECT id, lexeme FROM old_rows, unnest(lex_tsv)) gone
        WHERE p.term = gone.lexeme AND p.chunk_pk = gone.id;
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION rag.lex_postings_row() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    DELETE FROM rag.lex_postings WHERE chunk_pk = old.id
        AND term = ANY (tsvector_to_array(old.lex_tsv));
    INSERT INTO rag.lex_postings (term, chunk_pk, tf)
    SELECT lexeme, new.id, coalesce(array_length(positions, 1), 1) FROM unnest(new.lex_tsv);
    RETURN NULL;
END
$$;

CREATE TRIGGER chunks_lex_postings_inserted AFTER INSERT ON rag.chunks
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION rag.lex_postings_statement();
CREATE TRIGGER chunks_lex_postings_deleted AFTER DELETE ON rag.chunks
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION rag.lex_postings_statement();
CREATE TRIGGER chunks_lex_postings_updated AFTER UPDATE OF chunk, title ON rag.chunks
    FOR EACH ROW WHEN (old.lex_tsv IS DISTINCT FROM new.lex_tsv)
    EXECUTE FUNCTION rag.lex_postings_row();
