-- Strategy "threshold": the top-k without scoring every chunk (Fagin's threshold
-- algorithm). Every component is bounded (sem <= 1 per space, lex < 1, rec and sig in
-- [0, 1]), so:
--   1. each searched space is read nearest-first from its HNSW index (iterative scan,
--      strict order, the filter applied during the walk) to depth D; a chunk not read
--      in space i has a similarity of at most sim_i = 1 - the index's distance to the
--      last chunk read there (plus the index's half-precision rounding,
--      api.ann_distance_error(dims));
--   2. seeds are read too: the newest and the highest-signal chunks, and some whose
--      recency and signal alone score high; so is every chunk holding a query term
--      (api.lex_matches), so that an unread chunk has lex = 0;
--   3. what was read is scored in full (api.score); theta = the k-th best eligible score
--      (under max_per_source). With one weighted space, the walk scores what it reads
--      (and the seeds) in the statement that reads it (api.space_walk);
--   4. a chunk not read scores at most  w_cos * sum_i w_i * sim_i + static(c), with
--      static = w_rec * rec + w_sig * sig, so it can only reach theta when static(c) >=
--      sigma = theta - w_cos * sum_i w_i * sim_i. That region is a staircase in the
--      (created_at, signal) plane; the GiST index on that plane returns it as a union of
--      boxes (api.region_boxes), each chunk checked exactly;
--   5. the region is scored (with one weighted space, in one statement that keeps only
--      the chunks reaching theta); the k best of everything scored are the top-k.
-- When the region holds more than a budget (at least region_budget; 64 x D chunks with
-- one weighted space, whose region is scored in one statement at ~2 us a chunk, 8 x D
-- otherwise), scoring it would cost more than reading deeper (~10 us a chunk): the
-- semantic depth grows (x4), which tightens the bound, up to max_depth. At that depth (or with no semantic part) a region
-- of up to region_limit chunks is scored; a larger one means the bound did not close and
-- the caller scans. So does a semantic read that comes back short of D chunks in a
-- collection larger than hnsw.max_scan_tuples (the walk gave up before finding D chunks
-- that pass the filter); in a smaller one, the walk visited every vector.
--
-- The result is exact given the index's order: the bound trusts that HNSW returned every
-- chunk nearer than the farthest it returned, which it does not always do. The spaces
-- whose index order was trusted are returned in "approximate"; with none (no semantic
-- part, or no index to walk, so that the stream was an exact ordered scan), the result is
-- exact.

-- The region {w_rec * rec + w_sig * sig >= sigma} as a union of boxes in the
-- (epoch days, signal) plane that covers it. With s the signal and a the age, the region
-- is s >= g(a) = (sigma - w_rec * rec(a)) / w_sig, g increasing with age; for signal
-- levels 0 = l_0 < l_1 < ... < l_m = 1, box j holds s in [l_j, l_{j+1}] and the ages a
-- with g(a) <= l_{j+1}. Empty array: no chunk can be in the region.
CREATE FUNCTION api.region_boxes(
    p_sigma float8, p_w_rec float8, p_w_sig float8,
    p_rec_function text, p_rec_scale float8, p_now_days float8
) RETURNS box[]
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    v_levels float8[] := ARRAY[-1, 0.5, 0.75, 0.875, 0.9375, 0.96875, 0.984375, 0.9921875, 2];
    v_boxes box[] := '{}';
    v_age float8;
    v_far constant float8 := 1e9;  -- days: beyond any timestamp
BEGIN
    IF p_sigma > p_w_rec + p_w_sig THEN
        RETURN v_boxes;
    END IF;
    IF p_w_rec = 0 AND p_w_sig = 0 THEN  -- no static part, and sigma <= 0: every chunk
        RETURN ARRAY[box(point(-v_far, -1), point(v_far, 2))];
    END IF;
    IF p_w_rec = 0 THEN  -- signal alone: one band of signal, every age
        RETURN ARRAY[box(point(-v_far, p_sigma / p_w_sig), point(v_far, 2))];
    END IF;
    IF p_w_sig = 0 THEN  -- recency alone: one band of age, every signal
        v_age := api.recency_max_days(p_sigma / p_w_rec, p_rec_function, p_rec_scale);
        RETURN ARRAY[box(point(coalesce(p_now_days - v_age, -v_far), -1), point(v_far, 2))];
    END IF;
    FOR j IN 1 .. cardinality(v_levels) - 1 LOOP
        -- the oldest age whose signal requirement is at most the band's top level
        v_age := api.recency_max_days((p_sigma - p_w_sig * least(v_levels[j + 1], 1)) / p_w_rec,
                                      p_rec_function, p_rec_scale);
        CONTINUE WHEN v_age < 0;  -- even age 0 needs more than this band's signal
        v_boxes := v_boxes || box(point(coalesce(p_now_days - v_age, -v_far), v_levels[j]),
                                  point(v_far, v_levels[j + 1]));
    END LOOP;
    RETURN v_boxes;
END
$$;

CREATE FUNCTION api.plan_region_boxes(p api.search_plan, p_sigma float8)
RETURNS box[]
LANGUAGE sql IMMUTABLE
AS $$
    SELECT api.region_boxes(p_sigma, p.w_rec, p.w_sig, p.rec_function, p.rec_scale,
                            p.now_epoch / 86400)
$$;

-- Chunks whose static score reaches p_sigma, from the boxes (read lazily: at most
-- p_limit), with their created_at and signal. A chunk on a box edge may come twice.
CREATE FUNCTION api.region_chunks(
    p api.search_plan, p_boxes box[], p_sigma float8, p_limit integer,
    OUT ids bigint[], OUT created timestamptz[], OUT signals real[]
)
LANGUAGE plpgsql STABLE
SET enable_seqscan = off SET enable_bitmapscan = off
AS $$
DECLARE
    v_filter api.search_filter := p.filter;  -- a parameter of its own: read once per row
BEGIN
    ids := '{}';
    created := '{}';
    signals := '{}';
    IF coalesce(cardinality(p_boxes), 0) = 0 THEN
        RETURN;
    END IF;
    SELECT coalesce(array_agg(r.id), '{}'), coalesce(array_agg(r.created_at), '{}'),
           coalesce(array_agg(r.signal), '{}')
    INTO ids, created, signals
    FROM (SELECT r.id, r.created_at, r.signal
          FROM unnest(p_boxes) AS b(box)
          CROSS JOIN LATERAL (
              SELECT c.id, c.created_at, c.signal FROM rag.chunks c
              WHERE c.collection_id = p.collection_id
                AND point(rag.epoch_days(c.created_at), c.signal) <@ b.box) r
          WHERE api.static_score(p, r.created_at, r.signal) >= p_sigma
            -- the box read stays index-only; a filter looks each chunk up by its key
            AND (NOT p.filtered
                 OR (SELECT api.passes(v_filter, c.doc_id, c.src, c.tags, c.created_at, c.meta)
                     FROM rag.chunks c
                     WHERE c.id = r.id AND c.collection_id = p.collection_id))
          LIMIT p_limit) r;
END
$$;

-- The ids of api.region_chunks.
CREATE FUNCTION api.region_ids(p api.search_plan, p_boxes box[], p_sigma float8,
                               p_limit integer)
RETURNS bigint[]
LANGUAGE sql STABLE
AS $$ SELECT (api.region_chunks(p, p_boxes, p_sigma, p_limit)).ids $$;

-- Seeds: candidates likely to score high whatever the query (newest, highest signal,
-- high static score), so that theta starts high for recency- and signal-led mixes.
CREATE FUNCTION api.seed_ids(p api.search_plan)
RETURNS bigint[]
LANGUAGE plpgsql STABLE
SET enable_seqscan = off SET enable_bitmapscan = off SET enable_sort = off
AS $$
DECLARE
    v_seeds bigint[] := '{}';
    v_filter api.search_filter := p.filter;  -- a parameter of its own: read once per row
BEGIN
    IF p.w_rec > 0 THEN
        v_seeds := v_seeds || ARRAY(
            SELECT c.id FROM rag.chunks c
            WHERE c.collection_id = p.collection_id
              AND (NOT p.filtered
                   OR api.passes(v_filter, c.doc_id, c.src, c.tags, c.created_at, c.meta))
            ORDER BY c.created_at DESC LIMIT p.k);
    END IF;
    IF p.w_sig > 0 THEN
        v_seeds := v_seeds || ARRAY(
            SELECT c.id FROM rag.chunks c
            WHERE c.collection_id = p.collection_id
              AND (NOT p.filtered
                   OR api.passes(v_filter, c.doc_id, c.src, c.tags, c.created_at, c.meta))
            ORDER BY c.signal DESC LIMIT p.k);
    END IF;
    IF p.w_rec > 0 AND p.w_sig > 0 THEN
        v_seeds := v_seeds || api.region_ids(p, api.plan_region_boxes(p, 0.75 * (p.w_rec + p.w_sig)),
                                             0.75 * (p.w_rec + p.w_sig), 4 * p.k);
    END IF;
    RETURN v_seeds;
END
$$;

-- Score chunks (distinct ids): their sem in every weighted space (p_known_*: the
-- similarities already read, by space index), lex from the matches, and the rest from
-- rag.chunks. Returns the candidates that exist, with eligible scores (NULL: not
-- eligible).
CREATE FUNCTION api.score_ids(
    p api.search_plan, p_ids bigint[], p_known_spaces integer[], p_known_ids bigint[],
    p_known_sims float8[], p_lex_ids bigint[], p_lex_scores float8[],
    OUT ids bigint[], OUT chunk_ids text[], OUT sources text[], OUT scores float8[]
)
LANGUAGE plpgsql STABLE
SET enable_seqscan = off SET enable_bitmapscan = off SET enable_mergejoin = off
AS $$
DECLARE
    v_single integer := api.single_space(p);
    v_sem float8[];
    v_sims float8[];
BEGIN
    IF cardinality(p_ids) = 0 THEN
        ids := '{}'; chunk_ids := '{}'; sources := '{}'; scores := '{}';
        RETURN;
    END IF;
    IF v_single IS NOT NULL
       AND p_known_spaces = array_fill(v_single, ARRAY[cardinality(p_known_spaces)]) THEN
        -- one weighted space, everything known read there: one statement
        SELECT * INTO ids, chunk_ids, sources, scores
        FROM api.space_score(p.space_ids[v_single], p, v_single, p_ids, p_known_ids,
                             p_known_sims, p_lex_ids, p_lex_scores);
        RETURN;
    END IF;
    FOR i IN 1 .. cardinality(p.space_ids) LOOP
        CONTINUE WHEN p.space_weights[i] = 0 OR (p.w_cos = 0 AND p.min_similarity IS NULL);
        v_sims := api.space_sims(
            p.space_ids[i], p.vectors[i], p.collection_id, p_ids,
            ARRAY(SELECT k.id FROM unnest(p_known_spaces, p_known_ids) AS k(space, id)
                  WHERE k.space = i),
            ARRAY(SELECT k.sim FROM unnest(p_known_spaces, p_known_sims) AS k(space, sim)
                  WHERE k.space = i));
        v_sem := api.add_scaled(v_sem, p.space_weights[i], v_sims);
    END LOOP;
    SELECT coalesce(array_agg(x.id), '{}'), coalesce(array_agg(x.chunk_id), '{}'),
           coalesce(array_agg(x.source), '{}'), coalesce(array_agg(x.score), '{}')
    INTO ids, chunk_ids, sources, scores
    FROM (SELECT s.id, s.chunk_id, s.source,
                 api.eligible_score(p, s.score, s.sem, s.matched) AS score
          FROM (SELECT c.id, c.chunk_id, api.source_key(c.src, c.doc_id) AS source,
                       api.score(p, u.sem, lx.lex, c.created_at, c.signal) AS score, u.sem,
                       lx.id IS NOT NULL AS matched
                FROM unnest(p_ids, v_sem) AS u(id, sem)
                JOIN rag.chunks c ON c.id = u.id AND c.collection_id = p.collection_id
                LEFT JOIN unnest(p_lex_ids, p_lex_scores) AS lx(id, lex) ON lx.id = u.id
                OFFSET 0) s) x;  -- OFFSET 0: the score is computed once, then checked
END
$$;

-- acc + w * x, elementwise (NULL elements of x count 0; a NULL acc is all zeros).
CREATE FUNCTION api.add_scaled(p_acc float8[], p_w float8, p_x float8[])
RETURNS float8[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT array_agg(coalesce(a, 0) + p_w * coalesce(x, 0) ORDER BY n)
    FROM unnest(coalesce(p_acc, '{}'::float8[]), p_x) WITH ORDINALITY AS u(a, x, n)
$$;

-- The only space whose similarity counts (its index), or NULL when several do or when
-- similarity does not count at all.
CREATE FUNCTION api.single_space(p api.search_plan)
RETURNS integer
LANGUAGE sql IMMUTABLE
AS $$
    SELECT CASE WHEN count(*) = 1 AND (p.w_cos > 0 OR p.min_similarity IS NOT NULL)
                THEN min(i) END
    FROM generate_subscripts(p.space_ids, 1) AS i
    WHERE p.space_weights[i] > 0
$$;

CREATE FUNCTION api.topk_threshold(
    p api.search_plan, p_lex_ids bigint[], p_lex_scores float8[],
    OUT ids bigint[], OUT candidates bigint, OUT closed boolean, OUT depth integer,
    OUT rounds jsonb, OUT approximate text[]
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_clock timestamptz := clock_timestamp();
    v_semantic boolean := p.w_cos > 0 OR p.min_similarity IS NOT NULL;
    v_single integer := api.single_space(p);
    v_spaces integer := cardinality(p.space_ids);
    v_collection_chunks bigint := (SELECT chunks FROM rag.collections WHERE id = p.collection_id);
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
    v_walk record;
    v_walked integer;
    v_far float8;
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
    LOOP
        -- 1. the semantic streams at this depth
        v_bounds := array_fill(NULL::float8, ARRAY[v_spaces]);
        v_known_spaces := '{}';
        v_known_ids := '{}';
        v_known_sims := '{}';
        FOR i IN 1 .. v_spaces LOOP
            CONTINUE WHEN NOT v_semantic OR p.space_weights[i] = 0;
            IF i = v_single THEN
                -- the only weighted space: its chunks scored in the walk itself
                v_walk := api.space_walk(p.space_ids[i], p, i, depth, v_new, v_ids, p_lex_ids,
                                         p_lex_scores);
                v_new := '{}';
                v_ids := v_ids || v_walk.ids;
                v_chunk_ids := v_chunk_ids || v_walk.chunk_ids;
                v_sources := v_sources || v_walk.sources;
                v_scores := v_scores || v_walk.scores;
                v_walked := v_walk.walked;
                v_far := v_walk.far;
            ELSE
                v_stream := api.space_nearest(p.space_ids[i], p.vectors[i], depth, p.filter,
                                              p.filtered);
                v_walked := cardinality(v_stream.ids);
                v_far := v_stream.far;
            END IF;
            IF v_walked = depth THEN
                v_bounds[i] := 1 - v_far + api.ann_distance_error(p.space_dims[i]);
            ELSIF v_collection_chunks <= current_setting('hnsw.max_scan_tuples')::bigint THEN
                v_bounds[i] := 0;  -- the walk visited every vector: no unread chunk is near
            ELSE
                rounds := rounds || jsonb_build_object('depth', depth, 'short_stream',
                                                       p.space_names[i]);
                RETURN;  -- the walk gave up before finding depth chunks: scan instead
            END IF;
            IF v_single IS DISTINCT FROM i THEN
                v_known_spaces := v_known_spaces || array_fill(i, ARRAY[v_walked]);
                v_known_ids := v_known_ids || v_stream.ids;
                v_known_sims := v_known_sims || v_stream.sims;
                v_new := v_new || v_stream.ids;
            END IF;
            IF NOT p.space_names[i] = ANY (approximate)
               AND api.space_index_exists(p.space_ids[i], p.collection_id) THEN
                approximate := approximate || p.space_names[i];
            END IF;
        END LOOP;
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
        -- 4. the region that could still reach theta
        v_sigma := coalesce(v_theta, '-Infinity')
                   - p.w_cos * api.sem_bound(p, CASE WHEN v_semantic THEN v_bounds END) - 1e-9;
        v_boxes := CASE WHEN p.keyword_only THEN '{}'  -- every matching chunk was read
                        WHEN p.min_similarity IS NOT NULL
                             AND api.sem_bound(p, v_bounds) < p.min_similarity THEN '{}'
                        ELSE api.plan_region_boxes(p, v_sigma) END;
        v_budget := CASE WHEN NOT v_semantic OR depth >= p.max_depth THEN p.region_limit
                         WHEN v_single IS NOT NULL  -- a region chunk costs little to score
                         THEN least(p.region_limit, greatest(p.region_budget, 64 * depth))
                         ELSE greatest(p.region_budget, 8 * depth) END;
        v_scored_where_read := v_single IS NOT NULL AND v_theta IS NOT NULL;
        IF v_scored_where_read THEN
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
        rounds := rounds || jsonb_build_object(
            'depth', depth, 'theta', v_theta, 'sigma', v_sigma, 'boxes', cardinality(v_boxes),
            'region', v_region_size, 'scored', cardinality(v_ids),
            'ms', round((extract(epoch FROM clock_timestamp() - v_clock) * 1000)::numeric, 3));
        IF v_region_size <= v_budget THEN
            -- 5. score the region; the best of everything scored
            IF v_scored_where_read THEN
                v_new := ARRAY(SELECT unnest(v_reaching.ids) EXCEPT SELECT unnest(v_ids));
                v_known_spaces := array_fill(v_single, ARRAY[cardinality(v_reaching.ids)]);
                v_known_ids := v_reaching.ids;
                v_known_sims := v_reaching.sims;
            ELSE
                v_new := ARRAY(SELECT unnest(v_region) EXCEPT SELECT unnest(v_ids));
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
            RETURN;
        END IF;
        IF NOT v_semantic OR depth >= p.max_depth THEN
            candidates := cardinality(v_ids);
            RETURN;  -- the bound did not close: the caller scans
        END IF;
        depth := least(depth * 4, p.max_depth);
        v_new := '{}';
    END LOOP;
END
$$;
