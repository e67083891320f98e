-- Keyword relevance: Okapi BM25 over the chunks' title + text, normalised to [0, 1).
--
--   bm25(c)  = sum over query terms t of  idf_t * tf * (k1 + 1) / (tf + K)
--   K        = k1 * (1 - b + b * len(c) / avg_len)
--   idf_t    = ln(1 + (N - df_t + 0.5) / (df_t + 0.5))          (Lucene's, always > 0)
--   lex(c)   = bm25(c) / ((k1 + 1) * sum over query terms t of idf_t)
--            = sum over t of (idf_t / sum idf) * tf / (tf + K)
--
-- Each term's saturation tf / (tf + K) lies in [0, 1), so lex is the fraction of the
-- largest BM25 score the query could give, whatever the query's length or rarity: a
-- chunk holding every query term many times approaches 1, one holding none scores 0.
-- Terms are English-stemmed lexemes without stop words (to_tsvector('english')); terms
-- the collection does not hold are left out (they cannot be matched). N, df and avg_len
-- come from rag.lex_stats / rag.lex_terms, kept current by triggers at ingest.

-- The query side: its terms (those the collection holds), their weights idf_t / sum idf,
-- and the collection's average chunk length.
DROP FUNCTION IF EXISTS api.lex_query(text);
CREATE FUNCTION api.lex_query(
    p_query text,
    OUT terms text[], OUT weights float8[], OUT avg_len float8
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_docs bigint;
    v_tokens bigint;
    v_idf float8[];
BEGIN
    SELECT docs, tokens INTO v_docs, v_tokens FROM rag.lex_stats;
    avg_len := greatest(coalesce(v_tokens, 0)::float8 / greatest(coalesce(v_docs, 0), 1), 1);
    SELECT coalesce(array_agg(q.lexeme ORDER BY q.lexeme), '{}'),
           coalesce(array_agg(ln(1 + (v_docs - t.df + 0.5) / (t.df + 0.5)) ORDER BY q.lexeme),
                    '{}')
    INTO terms, v_idf
    FROM unnest(to_tsvector('english'::regconfig, coalesce(p_query, ''))) q
    JOIN rag.lex_terms t ON t.term = q.lexeme AND t.df > 0;
    weights := ARRAY(SELECT i / sum(i) OVER () FROM unnest(v_idf) WITH ORDINALITY u(i, n)
                     ORDER BY n);
END
$$;

-- A per-chunk scorer over tsvectors that databases before migration 0008 hold.
DROP FUNCTION IF EXISTS api.bm25(tsvector, integer, text[], float8[], float8, float8, float8);

-- Every chunk that passes the filter (a WHERE condition on c, over $2 = p_args) and
-- holds at least one query term, with its lex, read from the postings of the query's
-- terms (rag.lex_postings). p_bm25: {"k1": .., "b": ..}.
CREATE OR REPLACE FUNCTION api.lex_matches(
    p_query text, p_filter text, p_args jsonb, p_bm25 jsonb,
    OUT ids bigint[], OUT scores float8[]
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_query record := api.lex_query(p_query);
BEGIN
    ids := '{}';
    scores := '{}';
    IF cardinality(v_query.terms) = 0 THEN
        RETURN;
    END IF;
    EXECUTE format(
        'SELECT coalesce(array_agg(m.id), ''{}''), coalesce(array_agg(m.lex), ''{}'')
         FROM (SELECT p.chunk_pk AS id,
                      sum(q.w * p.tf / (p.tf + $5 * (1 - $6 + $6 * c.lex_len / $7))) AS lex
               FROM unnest($3::text[], $4::float8[]) q(term, w)
               JOIN rag.lex_postings p ON p.term = q.term
               JOIN rag.chunks c ON c.id = p.chunk_pk
               WHERE %s
               GROUP BY p.chunk_pk) m', p_filter)
    INTO ids, scores
    USING NULL::vector[], p_args, v_query.terms, v_query.weights,
          coalesce((p_bm25 ->> 'k1')::float8, 1.2), coalesce((p_bm25 ->> 'b')::float8, 0.75),
          v_query.avg_len;
END
$$;
