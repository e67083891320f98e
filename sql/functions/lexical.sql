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
-- Terms are English-stemmed lexemes without stop words (rag.chunk_terms); terms the
-- collection does not hold are left out (they cannot be matched). N and avg_len are the
-- collection's (rag.collection_counts), df_t too (rag.lex_terms): one collection's words never
-- change another's scores. The postings (rag.lex_postings) carry tf and len(c), so
-- scoring reads nothing else.

-- The query side: its terms the collection holds, their weights idf_t / sum idf, and
-- the collection's average chunk length; over several collections (the parts of a split
-- one), their sums, so that a part scores its chunks as the whole collection would.
CREATE FUNCTION api.lex_query(
    p_collections integer[], p_query text,
    OUT terms text[], OUT weights float8[], OUT avg_len float8
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_docs bigint;
    v_tokens bigint;
    v_terms text[] := ARRAY(SELECT DISTINCT term FROM rag.chunk_terms('', coalesce(p_query, '')));
    v_idf float8[];
BEGIN
    SELECT coalesce(sum(chunks), 0), coalesce(sum(tokens), 0) INTO v_docs, v_tokens
    FROM rag.collection_counts WHERE collection_id = ANY (p_collections);
    avg_len := greatest(v_tokens::float8 / greatest(v_docs, 1), 1);
    -- (the document frequencies summed first, then the query's terms ordered: on Citus the
    -- sum runs on the workers holding the collections)
    SELECT coalesce(array_agg(t.term ORDER BY t.term), '{}'),
           coalesce(array_agg(ln(1 + (v_docs - t.df + 0.5) / (t.df + 0.5)) ORDER BY t.term), '{}')
    INTO terms, v_idf
    FROM (SELECT l.term, sum(l.df) AS df FROM rag.lex_terms l
          WHERE l.collection_id = ANY (p_collections) AND l.term = ANY (v_terms) AND l.df > 0
          GROUP BY l.term) t;
    weights := ARRAY(SELECT i / sum(i) OVER () FROM unnest(v_idf) WITH ORDINALITY u(i, n)
                     ORDER BY n);
END
$$;

-- The plan with its query's terms, their weights and the collection's average chunk
-- length (no terms when keywords do not count). Terms the caller gave are kept: a split
-- collection's, read over all its parts (app/search/parts.py).
CREATE FUNCTION api.with_keywords(p api.search_plan)
RETURNS api.search_plan
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_lex record;
BEGIN
    IF p.lex_terms IS NOT NULL THEN
        RETURN p;
    END IF;
    p.lex_terms := '{}';
    p.lex_weights := '{}';
    p.lex_avg_len := 1;
    IF p.w_lex > 0 THEN
        v_lex := api.lex_query(ARRAY[p.collection_id], p.query);
        p.lex_terms := v_lex.terms;
        p.lex_weights := v_lex.weights;
        p.lex_avg_len := v_lex.avg_len;
    END IF;
    RETURN p;
END
$$;

-- Every chunk of the plan's collection that passes its filter and holds at least one
-- query term, with its lex, from the postings of the query's terms.
CREATE FUNCTION api.lex_matches(p api.search_plan, OUT ids bigint[], OUT scores float8[])
LANGUAGE plpgsql STABLE
SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off
AS $$
DECLARE
    v_filter api.search_filter := p.filter;  -- a parameter of its own: read once per row
BEGIN
    ids := '{}';
    scores := '{}';
    IF coalesce(cardinality(p.lex_terms), 0) = 0 THEN
        RETURN;
    END IF;
    IF NOT p.filtered THEN
        SELECT coalesce(array_agg(m.id), '{}'), coalesce(array_agg(m.lex), '{}')
        INTO ids, scores
        FROM (SELECT l.chunk_pk AS id,
                     sum(q.w * l.tf / (l.tf + p.bm25_k1 * (1 - p.bm25_b
                                                           + p.bm25_b * l.len / p.lex_avg_len)))
                         AS lex
              FROM unnest(p.lex_terms, p.lex_weights) AS q(term, w)
              JOIN rag.lex_postings l ON l.term = q.term AND l.collection_id = p.collection_id
              GROUP BY l.chunk_pk) m;
    ELSE
        SELECT coalesce(array_agg(m.id), '{}'), coalesce(array_agg(m.lex), '{}')
        INTO ids, scores
        FROM (SELECT l.chunk_pk AS id,
                     sum(q.w * l.tf / (l.tf + p.bm25_k1 * (1 - p.bm25_b
                                                           + p.bm25_b * l.len / p.lex_avg_len)))
                         AS lex
              FROM unnest(p.lex_terms, p.lex_weights) AS q(term, w)
              JOIN rag.lex_postings l ON l.term = q.term AND l.collection_id = p.collection_id
              JOIN rag.chunks c ON c.id = l.chunk_pk AND c.collection_id = p.collection_id
              WHERE api.passes(v_filter, c, (SELECT d.metadata FROM rag.documents d WHERE d.id = c.document_id AND d.collection_id = c.collection_id))
              GROUP BY l.chunk_pk) m;
    END IF;
END
$$;
