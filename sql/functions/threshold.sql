-- Strategy "threshold": the top-k without scoring every chunk (Fagin's threshold
-- algorithm). Every component is bounded (sem <= 1 per space, lex < 1, rec and sig in
-- [0, 1]), so:
--   1. each searched space is read nearest-first from its HNSW index (iterative scan,
--      strict order, the filter applied during the walk) to depth D; a chunk not read
--      in space i has a similarity of at most sim_i = 1 - the index's distance to the
--      last chunk read there (plus the index's half-precision rounding,
--      api.ann_distance_error(dims));
--   2. seeds are read too where recency and signal weigh at least half as much as
--      similarity: the newest and the highest-signal chunks, and some whose recency and
--      signal alone score high; so is every chunk holding a query term
--      (api.lex_matches), so that an unread chunk has lex = 0;
--   3. what was read is scored in full (api.score); theta = the k-th best eligible score
--      (under max_per_source). With one weighted space, the walk is an open cursor
--      (api.space_walk), read on by api.walk_fetch;
--   4. a chunk not read scores at most  w_cos * sum_i w_i * sim_i + static(c), with
--      static = w_rec * rec + w_sig * sig, so it can only reach theta when static(c) >=
--      sigma = theta - w_cos * sum_i w_i * sim_i. That region is a staircase in the
--      (created_at, signal) plane; the GiST index on that plane returns it as a union of
--      boxes (api.region_boxes), each chunk checked exactly;
--   5. the region is scored (with one weighted space, in one statement that keeps only
--      the chunks reaching theta); the k best of everything scored are the top-k.
-- When the region holds more than a budget, scoring it would cost more than reading
-- deeper, which tightens the bound: the semantic depth grows, up to max_depth. (Without
-- a filter, the region is not read at all when one of its legs alone, the chunks whose
-- signal or whose recency alone reaches sigma, passes the budget: api.region_legs
-- counts them in B-tree indexes, an order of magnitude cheaper an entry.) With one
-- weighted space the budget is region_ratio x D (16: a region chunk costs ~6 us to score,
-- a chunk walked ~15-35 us, and the region shrinks more slowly than the walk grows) and
-- the walk is read on to 2 x D, paying only for the chunks added; with several, 8 x D,
-- and every stream is read again to 4 x D. Either way at least region_budget. At
-- max_depth (or with no semantic part) a region of up to region_limit chunks is scored;
-- a larger one means the bound did not close and the caller scans. So does a semantic
-- read that comes back short of D chunks in a collection larger than
-- hnsw.max_scan_tuples (the walk gave up before finding D chunks that pass the filter);
-- in a smaller one, the walk visited every vector.
--
-- Each round is described in "rounds": its depth, theta, sigma, the region's boxes and
-- chunks (and its legs where they were counted), the chunks scored so far, ms since the
-- search began, and the ms of its phases: walk_ms (the semantic streams), score_ms (what
-- they brought, and theta), region_ms (the region read, and scored where it is read); the
-- first round also seeds_ms, and a round whose region is within its budget the walk's
-- check (api.walk_missed: sampled, sampled_beyond_bound, sampled_best, check_ms).
--
-- The result is exact given the index's order: the bound trusts that HNSW returned every
-- chunk nearer than the farthest it returned, which it does not always do. Before the
-- search closes, the walk is checked against a sample of the collection scored
-- exactly (api.walk_missed): a sampled chunk the walk did not return that is nearer
-- than its bound proves the walk passed chunks over (a walk routed into the wrong part
-- of the graph); the search then does not close ("unclosed" says why) and the caller
-- scans. The spaces whose index
-- order was trusted are returned in "approximate"; with none (no semantic part, or no
-- index to walk, so that the stream was an exact ordered scan), the result is exact.

CREATE FUNCTION api.topk_threshold(
    p api.search_plan, p_lex_ids bigint[], p_lex_scores float8[],
    OUT ids bigint[], OUT candidates bigint, OUT closed boolean, OUT depth integer,
    OUT rounds jsonb, OUT approximate text[], OUT unclosed text
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_clock timestamptz := clock_timestamp();
    v_phase timestamptz;  -- when this round's phase began
    v_phases jsonb;  -- this round's ms per phase
    v_semantic boolean := p.w_cos > 0 OR p.min_similarity IS NOT NULL;
    v_single integer := api.single_space(p);
    v_spaces integer := cardinality(p.space_ids);
    -- everything scored so far
    v_ids bigint[] := '{}';
    v_chunk_ids text[] := '{}';
    v_sources text[] := '{}';
    v_scores float8[] := '{}';
    v_scored record;
    -- this round's reads
    v_known_spaces integer[];
    v_known_ids bigint[];
    v_known_sims float8[];
    v_stream record;
    v_walk refcursor;  -- the only weighted space's walk, read on round after round
    -- the only weighted space's walk: the chunks it returned over all rounds, and the
    -- distance of the last
    v_walked bigint[] := '{}';
    v_far float8;
    v_check record;
    v_missed boolean;  -- the check found the walk passed chunks over
    v_bounds float8[];
    v_new bigint[];
    v_theta float8;
    v_sigma float8;
    v_boxes box[];
    v_budget integer;
    v_region bigint[];
    v_region_size integer;
    v_reaching record;
    v_scored_where_read boolean;  -- the region scored in the call that reads it (one space)
    v_legs integer;  -- the region's legs, counted before it is read
    v_best integer[];
BEGIN
    -- Only similarity counts: the k best are among the first few the walk returns (the
    -- walk's cost is set by ef_search, not by how many it returns). Otherwise read
    -- ef_search deep, for a tight bound on the similarity of the chunks not read.
    depth := CASE WHEN p.w_rec + p.w_sig + p.w_lex = 0 THEN least(p.ef_search, greatest(2 * p.k, 20))
                  ELSE greatest(p.ef_search, 2 * p.k) END;
    rounds := '[]';
    approximate := '{}';
    closed := false;
    v_new := api.seed_ids(p) || p_lex_ids;
    v_phases := jsonb_build_object('seeds_ms', api.elapsed_ms(v_clock));
    <<deepening>>
    LOOP
        v_phase := clock_timestamp();
        -- 1. the semantic streams at this depth
        v_bounds := array_fill(NULL::float8, ARRAY[v_spaces]);
        v_known_spaces := '{}';
        v_known_ids := '{}';
        v_known_sims := '{}';
        FOR i IN 1 .. v_spaces LOOP
            CONTINUE WHEN NOT v_semantic OR p.space_weights[i] = 0;
            IF i = v_single THEN
                -- the only weighted space: its walk read on from where the last round
                -- stopped
                v_walk := coalesce(v_walk, api.space_walk(p.space_ids[i], p, i));
                v_stream := api.walk_fetch(v_walk, depth - cardinality(v_walked));
                v_walked := v_walked || v_stream.ids;
                v_far := coalesce(v_stream.far, v_far);
                v_bounds[i] := api.walk_bound(p, cardinality(v_walked), depth, 1,
                                              1 - v_far
                                              + api.ann_distance_error(p.space_dims[i]));
            ELSE
                v_stream := api.space_nearest(p.space_ids[i], p, i, depth);
                v_bounds[i] := v_stream.bound;
            END IF;
            IF v_bounds[i] IS NULL THEN
                rounds := rounds || jsonb_build_object('depth', depth, 'short_stream',
                                                       p.space_names[i]);
                EXIT deepening;  -- the walk gave up before finding depth chunks: scan
            END IF;
            v_known_spaces := v_known_spaces
                              || array_fill(i, ARRAY[cardinality(v_stream.ids)]);
            v_known_ids := v_known_ids || v_stream.ids;
            v_known_sims := v_known_sims || v_stream.sims;
            v_new := v_new || v_stream.ids;
            IF NOT p.space_names[i] = ANY (approximate)
               AND api.space_index_exists(p.space_ids[i], p.collection_id) THEN
                approximate := approximate || p.space_names[i];
            END IF;
        END LOOP;
        v_phases := v_phases || jsonb_build_object('walk_ms', api.elapsed_ms(v_phase));
        v_phase := clock_timestamp();
        -- 2-3. score what is new; theta
        IF cardinality(v_new) > 0 THEN
            v_new := ARRAY(SELECT u.id FROM unnest(v_new) AS u(id) WHERE u.id IS NOT NULL
                           EXCEPT SELECT unnest(v_ids));
            v_scored := api.score_ids(p, v_new, v_known_spaces, v_known_ids, v_known_sims,
                                      p_lex_ids, p_lex_scores);
            v_ids := v_ids || v_scored.ids;
            v_chunk_ids := v_chunk_ids || v_scored.chunk_ids;
            v_sources := v_sources || v_scored.sources;
            v_scores := v_scores || v_scored.scores;
        END IF;
        v_best := api.best_positions(p, v_scores, v_chunk_ids, v_sources, p.k);
        v_theta := CASE WHEN cardinality(v_best) >= p.k THEN v_scores[v_best[p.k]] END;
        v_theta := greatest(v_theta, p.min_score);
        v_phases := v_phases || jsonb_build_object('score_ms', api.elapsed_ms(v_phase));
        v_phase := clock_timestamp();
        -- 4. the region that could still reach theta
        v_sigma := coalesce(v_theta, '-Infinity')
                   - p.w_cos * api.sem_bound(p, CASE WHEN v_semantic THEN v_bounds END) - 1e-9;
        v_boxes := CASE WHEN p.keyword_only THEN '{}'  -- every matching chunk was read
                        WHEN p.min_similarity IS NOT NULL
                             AND api.sem_bound(p, v_bounds) < p.min_similarity THEN '{}'
                        ELSE api.plan_region_boxes(p, v_sigma) END;
        v_budget := CASE WHEN NOT v_semantic OR depth >= p.max_depth THEN p.region_limit
                         WHEN v_single IS NOT NULL
                         THEN least(p.region_limit,
                                    greatest(p.region_budget, p.region_ratio * depth))
                         ELSE greatest(p.region_budget, 8 * depth) END;
        v_scored_where_read := v_single IS NOT NULL AND v_theta IS NOT NULL;
        -- a region past the budget in its legs alone is not read: deeper at once
        v_legs := CASE WHEN cardinality(v_boxes) > 0 AND NOT p.filtered
                            AND (v_sigma < p.w_sig OR v_sigma < p.w_rec)
                       THEN api.region_legs(p, v_sigma, v_budget + 1) END;
        IF cardinality(v_boxes) = 0 THEN
            -- nothing unread can reach theta: no region to read
            v_region := '{}';
            v_region_size := 0;
            v_scored_where_read := false;
        ELSIF v_legs > v_budget THEN
            v_region_size := v_legs;
            v_scored_where_read := false;
        ELSIF v_scored_where_read THEN
            -- the region read once, and scored in the same call when within the budget:
            -- only the few chunks that reach theta come back
            v_reaching := api.space_region(p.space_ids[v_single], p, v_single, v_boxes,
                                           v_sigma, v_theta, p_lex_ids, p_lex_scores,
                                           v_budget + 1);
            v_region_size := v_reaching.region;
        ELSE
            v_region := api.region_ids(p, v_boxes, v_sigma, v_budget + 1);
            v_region_size := cardinality(v_region);
        END IF;
        v_phases := v_phases || jsonb_build_object('region_ms', api.elapsed_ms(v_phase));
        v_missed := false;
        -- (without w_cos the bound counts only where it excludes the chunks not read by
        -- min_similarity)
        IF v_region_size <= v_budget AND cardinality(approximate) > 0 AND p.walk_check
           AND (p.w_cos > 0 OR api.sem_bound(p, v_bounds) < p.min_similarity) THEN
            -- the walks the bound trusts, checked against the sample
            v_phase := clock_timestamp();
            v_check := api.walk_missed(p, v_bounds, approximate, v_single, v_walked,
                                       v_known_spaces, v_known_ids);
            v_phases := v_phases || v_check.described
                        || jsonb_build_object('check_ms', api.elapsed_ms(v_phase));
            v_missed := v_check.missed;
        END IF;
        rounds := rounds || (jsonb_build_object(
            'depth', depth, 'theta', v_theta, 'sigma', v_sigma, 'boxes', cardinality(v_boxes),
            'region', v_region_size, 'scored', cardinality(v_ids),
            'legs', v_legs, 'ms', api.elapsed_ms(v_clock))
            || v_phases);
        v_phases := '{}';
        IF v_missed THEN
            unclosed := 'a sampled chunk the index walk did not return is nearer than '
                        'the walk''s bound: the walk passed chunks over';
            candidates := cardinality(v_ids);
            EXIT deepening;
        END IF;
        IF v_region_size <= v_budget THEN
            -- 5. score the region; the best of everything scored
            IF v_scored_where_read THEN
                v_new := ARRAY(SELECT unnest(v_reaching.ids) EXCEPT SELECT unnest(v_ids));
                v_known_spaces := array_fill(v_single, ARRAY[cardinality(v_reaching.ids)]);
                v_known_ids := v_reaching.ids;
                v_known_sims := v_reaching.sims;
            ELSIF cardinality(v_region) > 0 THEN
                v_new := ARRAY(SELECT unnest(v_region) EXCEPT SELECT unnest(v_ids));
            ELSE
                v_new := '{}';
            END IF;
            IF cardinality(v_new) > 0 THEN
                v_scored := api.score_ids(p, v_new, v_known_spaces, v_known_ids,
                                          v_known_sims, p_lex_ids, p_lex_scores);
                v_ids := v_ids || v_scored.ids;
                v_chunk_ids := v_chunk_ids || v_scored.chunk_ids;
                v_sources := v_sources || v_scored.sources;
                v_scores := v_scores || v_scored.scores;
                v_best := api.best_positions(p, v_scores, v_chunk_ids, v_sources, p.k);
            END IF;
            ids := ARRAY(SELECT v_ids[n] FROM unnest(v_best) AS n);
            candidates := cardinality(v_ids) + v_region_size;
            closed := true;
            EXIT deepening;
        END IF;
        IF NOT v_semantic OR depth >= p.max_depth THEN
            candidates := cardinality(v_ids);
            EXIT deepening;  -- the bound did not close: the caller scans
        END IF;
        -- a walk read on costs only the chunks added; the other streams start again
        depth := least(depth * CASE WHEN v_single IS NOT NULL THEN 2 ELSE 4 END,
                       p.max_depth);
        v_new := '{}';
    END LOOP;
    IF v_walk IS NOT NULL THEN
        CLOSE v_walk;
    END IF;
END
$$;
