-- Which strategy answers a request, from facts that are current at every commit (no
-- ANALYZE needed): the collection's chunk count (rag.collection_counts, kept by triggers),
-- the tags' counts (rag.tag_counts), the number of keyword matches, and for the other
-- filters a small sample of the collection (TABLESAMPLE, about sample_rows chunks).
--
--   scan       when few chunks can pass (at most scan_rows), or so few that scoring them
--              costs less than walking the index past the others: a walk reads about
--              ef_search x total / passing vectors to find ef_search that pass, each
--              costing walk_cost scored rows, so a filter passing E chunks is scanned
--              when E^2 <= walk_cost x ef_search x total; or the keyword matches are
--              so many that reading them all costs what a scan does, or the request is
--              keyword-only (its candidates are exactly its matches);
--   threshold  otherwise.

-- How many chunks pass the plan's filter: an upper bound from counts, or an estimate from
-- a sample when counts cannot tell; "how" says which.
-- p_total: the collection's chunks.
CREATE FUNCTION api.filtered_rows(
    p api.search_plan, p_total bigint, OUT estimate float8, OUT how text
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    -- counting further than this cannot change the choice (see api.choose_strategy)
    v_count_limit bigint := greatest(p.scan_rows,
                                     ceil(sqrt(p.walk_cost * p.ef_search * p_total))::bigint);
    v_scan_rows integer := p.scan_rows;
    v_sample_rows integer := p.sample_rows;
    v_matched bigint;
    v_sampled bigint;
    f api.search_filter := p.filter;
BEGIN
    estimate := p_total;
    how := 'count';
    IF NOT p.filtered THEN
        RETURN;
    END IF;
    IF f.doc_ids IS NOT NULL THEN
        estimate := least(estimate, (SELECT count(*) FROM (
            SELECT 1 FROM rag.chunks c
            WHERE c.collection_id = p.collection_id AND c.doc_id = ANY (f.doc_ids)
            LIMIT v_count_limit + 1) capped));
    END IF;
    IF f.tags_any IS NOT NULL THEN
        estimate := least(estimate, (SELECT coalesce(sum(chunks), 0) FROM rag.tag_counts
                                     WHERE collection_id = p.collection_id
                                       AND tag = ANY (f.tags_any)));
    END IF;
    IF f.tags_all IS NOT NULL AND cardinality(f.tags_all) > 0 THEN
        estimate := least(estimate, coalesce((
            SELECT min(coalesce(t.chunks, 0))
            FROM unnest(f.tags_all) AS u(tag)
            LEFT JOIN rag.tag_counts t ON t.tag = u.tag AND t.collection_id = p.collection_id), 0));
    END IF;
    IF estimate <= v_scan_rows THEN
        RETURN;
    END IF;
    IF f.src_like IS NOT NULL OR f.created_after IS NOT NULL OR f.created_before IS NOT NULL
       OR f.metadata IS NOT NULL THEN
        SELECT count(*) FILTER (WHERE api.passes(f, c, (SELECT d.metadata FROM rag.documents d WHERE d.id = c.document_id AND d.collection_id = c.collection_id))),
               count(*)
        INTO v_matched, v_sampled
        FROM rag.chunks c TABLESAMPLE SYSTEM (least(100, 100.0 * v_sample_rows / greatest(p_total, 1)))
             REPEATABLE (0)
        WHERE c.collection_id = p.collection_id;
        IF v_sampled > 0 THEN
            estimate := least(estimate, p_total * v_matched::float8 / v_sampled);
            how := 'sample';
        END IF;
    END IF;
END
$$;

CREATE FUNCTION api.choose_strategy(
    p api.search_plan, p_keyword_matches integer,
    OUT strategy text, OUT reason text, OUT filtered_rows float8
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_total bigint := (SELECT chunks FROM rag.collection_counts
                        WHERE collection_id = p.collection_id);
    v_scan_rows integer := p.scan_rows;
    v_lex_limit integer := p.lex_limit;
    v_rows record;
BEGIN
    IF p.strategy <> 'auto' THEN
        strategy := p.strategy;
        reason := CASE p.strategy WHEN 'scan' THEN 'exact requested' ELSE 'requested' END;
        RETURN;
    END IF;
    strategy := 'scan';
    IF p.keyword_only THEN
        reason := 'keyword-only: the candidates are the keyword matches';
        RETURN;
    END IF;
    IF p.w_lex > 0 AND p_keyword_matches > least(v_lex_limit, v_total / 3) THEN
        reason := format('%s keyword matches of %s chunks', p_keyword_matches, v_total);
        RETURN;
    END IF;
    IF v_total <= v_scan_rows THEN
        reason := format('%s chunks in the collection', v_total);
        RETURN;
    END IF;
    v_rows := api.filtered_rows(p, v_total);
    filtered_rows := v_rows.estimate;
    IF v_rows.estimate <= v_scan_rows THEN
        reason := format('about %s chunks pass the filter (%s)', round(v_rows.estimate),
                         v_rows.how);
        RETURN;
    END IF;
    IF v_rows.estimate ^ 2 <= p.walk_cost * p.ef_search * v_total THEN
        reason := format('about %s of %s chunks pass the filter (%s): scoring them costs '
                         'less than walking the index past the others',
                         round(v_rows.estimate), v_total, v_rows.how);
        RETURN;
    END IF;
    strategy := 'threshold';
    reason := CASE WHEN p.filtered
                   THEN format('about %s of %s chunks pass the filter (%s)',
                               round(v_rows.estimate), v_total, v_rows.how)
                   ELSE format('%s chunks in the collection', v_total) END;
END
$$;
