-- An inverted index for BM25: one row per (term, chunk) with the term's frequency in the
-- chunk. Scoring a query then reads the postings of its terms only, instead of taking
-- every matching chunk's tsvector apart. Kept by the same statement-level triggers as
-- the corpus statistics.
CREATE TABLE rag.lex_postings (
    term     text NOT NULL,
    chunk_pk bigint NOT NULL,
    tf       integer NOT NULL,
    PRIMARY KEY (term, chunk_pk)
);

INSERT INTO rag.lex_postings (term, chunk_pk, tf)
SELECT lexeme, id, coalesce(array_length(positions, 1), 1)
FROM rag.chunks, unnest(lex_tsv);

CREATE OR REPLACE FUNCTION rag.lex_count_statement() RETURNS trigger
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
        INSERT INTO rag.lex_postings (term, chunk_pk, tf)
        SELECT lexeme, id, coalesce(array_length(positions, 1), 1) FROM new_rows, unnest(lex_tsv);
    ELSE
        UPDATE rag.lex_stats
        SET docs = docs - (SELECT count(*) FROM old_rows),
            tokens = tokens - (SELECT coalesce(sum(lex_len), 0) FROM old_rows);
        UPDATE rag.lex_terms t SET df = t.df - gone.n
        FROM (SELECT lexeme, count(*) AS n FROM old_rows, unnest(lex_tsv)
              GROUP BY lexeme ORDER BY lexeme) gone
        WHERE t.term = gone.lexeme;
        DELETE FROM rag.lex_postings p
        USING (SELECT id, lexeme FROM old_rows, unnest(lex_tsv)) gone
        WHERE p.term = gone.lexeme AND p.chunk_pk = gone.id;
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION rag.lex_count_row() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    UPDATE rag.lex_stats SET tokens = tokens - old.lex_len + new.lex_len;
    UPDATE rag.lex_terms t SET df = t.df - 1
    FROM unnest(old.lex_tsv) u WHERE t.term = u.lexeme;
    INSERT INTO rag.lex_terms AS t (term, df)
    SELECT lexeme, 1 FROM unnest(new.lex_tsv) ORDER BY lexeme
    ON CONFLICT (term) DO UPDATE SET df = t.df + 1;
    DELETE FROM rag.lex_postings WHERE chunk_pk = old.id
        AND term = ANY (tsvector_to_array(old.lex_tsv));
    INSERT INTO rag.lex_postings (term, chunk_pk, tf)
    SELECT lexeme, new.id, coalesce(array_length(positions, 1), 1) FROM unnest(new.lex_tsv);
    RETURN NULL;
END
$$;
