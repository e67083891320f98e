-- What the threshold search (threshold.sql) reads and scores: the static region as
-- boxes and its chunks, the seeds, the walk of the only weighted space read on as the
-- search deepens, and the scoring of chunk ids.

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
    -- the plan's fields each a parameter of its own: a field of the plan read per row
    -- costs a look-up in the whole plan each time
    v_filter api.search_filter := p.filter;
    v_filtered boolean := p.filtered;
    v_collection integer := p.collection_id;
    v_w_rec float8 := p.w_rec;
    v_w_sig float8 := p.w_sig;
    v_rec_function text := p.rec_function;
    v_rec_scale float8 := p.rec_scale;
    v_now float8 := p.now_epoch;
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
              WHERE c.collection_id = v_collection
                AND point(rag.epoch_days(c.created_at), c.signal) <@ b.box) r
          WHERE api.static_terms(v_w_rec, v_w_sig, v_rec_function, v_rec_scale, v_now,
                                 r.created_at, r.signal) >= p_sigma
            -- the box read stays index-only; a filter looks each chunk up by its key
            AND (NOT v_filtered
                 OR (SELECT api.passes(v_filter, c, (SELECT d.metadata FROM rag.documents d WHERE d.id = c.document_id AND d.collection_id = c.collection_id))
                     FROM rag.chunks c
                     WHERE c.id = r.id AND c.collection_id = v_collection))
          LIMIT p_limit) r;
END
$$;

-- The ids of api.region_chunks.
CREATE FUNCTION api.region_ids(p api.search_plan, p_boxes box[], p_sigma float8,
                               p_limit integer)
RETURNS bigint[]
LANGUAGE sql STABLE
AS $$ SELECT (api.region_chunks(p, p_boxes, p_sigma, p_limit)).ids $$;

-- A lower bound on how many chunks the region {static >= p_sigma} holds, counted up to
-- p_limit: its two legs, the chunks whose signal alone reaches sigma and those whose
-- recency alone does (the larger of the two), each read index-only from a B-tree on
-- (collection_id, signal) or (collection_id, created_at) at a few tenths of a
-- microsecond an entry, where the GiST read of the region costs a few microseconds a
-- chunk. 0 under a filter (which part of a leg passes it only the region read tells).
CREATE FUNCTION api.region_legs(p api.search_plan, p_sigma float8, p_limit integer)
RETURNS integer
LANGUAGE plpgsql STABLE
SET enable_seqscan = off SET enable_bitmapscan = off
AS $$
DECLARE
    v_collection integer := p.collection_id;
    v_signal float8;
    v_age float8;
    v_since timestamptz;
    v_count integer := 0;
BEGIN
    IF p.filtered THEN
        RETURN 0;
    END IF;
    IF p.w_sig > 0 AND p_sigma < p.w_sig THEN
        v_signal := p_sigma / p.w_sig;
        SELECT count(*) INTO v_count
        FROM (SELECT FROM rag.chunks c
              WHERE c.collection_id = v_collection AND c.signal >= v_signal
              LIMIT p_limit) leg;
    END IF;
    IF v_count < p_limit AND p.w_rec > 0 AND p_sigma < p.w_rec THEN
        v_age := api.recency_max_days(p_sigma / p.w_rec, p.rec_function, p.rec_scale);
        -- NULL: every age; past a million days (before any date a chunk has), every one
        v_since := CASE WHEN v_age <= 1e6 THEN to_timestamp(p.now_epoch - 86400 * v_age)
                        ELSE '-infinity' END;
        SELECT greatest(v_count, count(*)) INTO v_count
        FROM (SELECT FROM rag.chunks c
              WHERE c.collection_id = v_collection AND c.created_at >= v_since
              LIMIT p_limit) leg;
    END IF;
    RETURN v_count;
END
$$;

-- Seeds: candidates likely to score high whatever the query (newest, highest signal,
-- high static score), so that theta starts high for recency- and signal-led mixes. None
-- where cosine leads (the static weights under half its weight): there the nearest chunks
-- set theta, and the seeds cost more than they save (0.8/0.1/0.1: 8.6 -> 7.8 ms at 100k,
-- 12.0 -> 10.6 at 1M; the rows are the same either way).
CREATE FUNCTION api.seed_ids(p api.search_plan)
RETURNS bigint[]
LANGUAGE plpgsql STABLE
SET enable_seqscan = off SET enable_bitmapscan = off SET enable_sort = off
AS $$
DECLARE
    v_seeds bigint[] := '{}';
    v_filter api.search_filter := p.filter;  -- a parameter of its own: read once per row
BEGIN
    IF p.w_rec + p.w_sig < p.w_cos / 2 THEN
        RETURN v_seeds;
    END IF;
    IF p.w_rec > 0 THEN
        v_seeds := v_seeds || ARRAY(
            SELECT c.id FROM rag.chunks c
            WHERE c.collection_id = p.collection_id
              AND (NOT p.filtered
                   OR api.passes(v_filter, c, (SELECT d.metadata FROM rag.documents d WHERE d.id = c.document_id AND d.collection_id = c.collection_id)))
            ORDER BY c.created_at DESC LIMIT p.k);
    END IF;
    IF p.w_sig > 0 THEN
        v_seeds := v_seeds || ARRAY(
            SELECT c.id FROM rag.chunks c
            WHERE c.collection_id = p.collection_id
              AND (NOT p.filtered
                   OR api.passes(v_filter, c, (SELECT d.metadata FROM rag.documents d WHERE d.id = c.document_id AND d.collection_id = c.collection_id)))
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
            p.space_ids[i], p, i, p_ids,
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

-- The only space whose similarity counts (its index) when it is dense (the kind whose
-- walk is read on, and region and chunks scored in one statement), or NULL when several
-- do, or another kind, or when similarity does not count at all.
CREATE FUNCTION api.single_space(p api.search_plan)
RETURNS integer
LANGUAGE sql IMMUTABLE
AS $$
    SELECT CASE WHEN count(*) = 1 AND (p.w_cos > 0 OR p.min_similarity IS NOT NULL)
                     AND p.space_kinds[min(i)] = 'dense'
                THEN min(i) END
    FROM generate_subscripts(p.space_ids, 1) AS i
    WHERE p.space_weights[i] > 0
$$;

-- The next p_rows chunks of an open walk (api.space_<id>_walk), nearest first, with their
-- similarities; far: the walk's distance to the last of them (NULL: none came, the walk
-- is over).
CREATE FUNCTION api.walk_fetch(
    p_walk refcursor, p_rows integer, OUT ids bigint[], OUT sims float8[], OUT far float8
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_id bigint;
    v_sim float8;
BEGIN
    ids := '{}';
    sims := '{}';
    FOR n IN 1 .. p_rows LOOP
        FETCH p_walk INTO v_id, v_sim, far;
        EXIT WHEN NOT FOUND;
        ids := ids || v_id;
        sims := sims || v_sim;
    END LOOP;
END
$$;

-- The check of the walks a closing threshold search trusts (p_approximate: the spaces
-- whose index order its bound relied on; p_bounds: each one's bound): each dense one's
-- sample (api.space_sample) scored exactly. missed: a sampled chunk the walk did not
-- return is more similar than the walk's bound, so the bound is wrong (the walk passed
-- chunks over) and the search must not close on it. p_walked: what the only weighted
-- space's walk returned over all rounds (p_single); the other streams' reads are this
-- round's (p_known_*: read again at each depth). described: for the round's record.
CREATE FUNCTION api.walk_missed(
    p api.search_plan, p_bounds float8[], p_approximate text[], p_single integer,
    p_walked bigint[], p_known_spaces integer[], p_known_ids bigint[],
    OUT missed boolean, OUT described jsonb
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_sample record;
    v_sampled integer := 0;
    v_beyond integer := 0;
    v_best float8;
BEGIN
    FOR i IN 1 .. cardinality(p.space_ids) LOOP
        CONTINUE WHEN p.space_weights[i] = 0 OR p.space_kinds[i] <> 'dense'
                      OR p_bounds[i] IS NULL OR NOT p.space_names[i] = ANY (p_approximate);
        v_sample := api.space_sample(
            p.space_ids[i], p, i,
            CASE WHEN i = p_single THEN p_walked
                 ELSE ARRAY(SELECT k.id FROM unnest(p_known_spaces, p_known_ids) AS k(space, id)
                            WHERE k.space = i) END,
            greatest(p_bounds[i], 0));  -- as api.sem_bound counts it
        v_sampled := v_sampled + v_sample.sampled;
        v_beyond := v_beyond + v_sample.beyond;
        v_best := greatest(v_best, v_sample.best);
    END LOOP;
    missed := v_beyond > 0;
    described := jsonb_build_object('sampled', v_sampled, 'sampled_beyond_bound', v_beyond)
                 || CASE WHEN missed THEN jsonb_build_object('sampled_best', v_best)
                         ELSE '{}' END;
END
$$;
