-- The dispatchers of the per-space functions (015_space_functions.sql):
-- api.space_nearest, api.space_walk, api.space_region, api.space_score, api.space_sims and
-- api.space_measures take a space id and call that space's function. They are generated
-- (a CASE over the registered spaces, static calls) after every change to the registry,
-- so that each call is planned once per connection like the functions it reaches.

CREATE FUNCTION api.drop_space_functions(p_space_id integer)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    EXECUTE format('DROP FUNCTION IF EXISTS api.%I(vector, integer, api.search_filter, boolean)',
                   api.space_function(p_space_id, 'nearest'));
    EXECUTE format('DROP FUNCTION IF EXISTS api.%I(vector, integer, bigint[], bigint[], float8[])',
                   api.space_function(p_space_id, 'sims'));
    EXECUTE format('DROP FUNCTION IF EXISTS api.%I(api.search_plan, integer, bigint[], bigint[], '
                   'float8[], bigint[], float8[])', api.space_function(p_space_id, 'score'));
    EXECUTE format('DROP FUNCTION IF EXISTS api.%I(vector, integer, bigint[])',
                   api.space_function(p_space_id, 'measures'));
    EXECUTE format('DROP FUNCTION IF EXISTS api.%I(api.search_plan, integer, box[], float8, '
                   'float8, bigint[], float8[], integer)', api.space_function(p_space_id, 'region'));
    EXECUTE format('DROP FUNCTION IF EXISTS api.%I(api.search_plan, integer, integer, bigint[], '
                   'bigint[], bigint[], float8[])', api.space_function(p_space_id, 'walk'));
    PERFORM api.create_space_dispatch(p_space_id);
END
$$;

-- The dispatchers: for each registered space (but p_dropped, a space being dropped), a
-- static call of its function; an unknown id raises invalid_space.
CREATE FUNCTION api.create_space_dispatch(p_dropped integer DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_ids integer[] := ARRAY(SELECT id FROM rag.spaces
                             WHERE id IS DISTINCT FROM p_dropped ORDER BY id);
    v_nearest text := ' WHEN NULL THEN NULL;';  -- a CASE needs one WHEN, even with no spaces
    v_sims text := ' WHEN NULL THEN NULL;';
    v_measures text := ' WHEN NULL THEN NULL;';
    v_region text := ' WHEN NULL THEN NULL;';
    v_score text := ' WHEN NULL THEN NULL;';
    v_walk text := ' WHEN NULL THEN NULL;';
BEGIN
    FOR i IN 1 .. coalesce(cardinality(v_ids), 0) LOOP
        v_nearest := v_nearest || format(
            ' WHEN %s THEN SELECT * INTO ids, sims, far FROM api.%I(p_q, p_depth, p_filter, p_filtered); RETURN;',
            v_ids[i], api.space_function(v_ids[i], 'nearest'));
        v_sims := v_sims || format(
            ' WHEN %s THEN RETURN api.%I(p_q, p_collection, p_ids, p_known_ids, p_known_sims);',
            v_ids[i], api.space_function(v_ids[i], 'sims'));
        v_measures := v_measures || format(
            ' WHEN %s THEN SELECT * INTO sims, l2 FROM api.%I(p_q, p_collection, p_ids); RETURN;',
            v_ids[i], api.space_function(v_ids[i], 'measures'));
        v_region := v_region || format(
            ' WHEN %s THEN SELECT * INTO ids, sims, region FROM api.%I(p, p_space, p_boxes, p_sigma, p_theta, p_lex_ids, p_lex_scores, p_limit); RETURN;',
            v_ids[i], api.space_function(v_ids[i], 'region'));
        v_score := v_score || format(
            ' WHEN %s THEN SELECT * INTO ids, chunk_ids, sources, scores FROM api.%I(p, p_space, p_ids, p_known_ids, p_known_sims, p_lex_ids, p_lex_scores); RETURN;',
            v_ids[i], api.space_function(v_ids[i], 'score'));
        v_walk := v_walk || format(
            ' WHEN %s THEN SELECT * INTO walked, far, ids, chunk_ids, sources, scores FROM api.%I(p, p_space, p_depth, p_extra, p_skip, p_lex_ids, p_lex_scores); RETURN;',
            v_ids[i], api.space_function(v_ids[i], 'walk'));
    END LOOP;
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION api.space_nearest(
            p_space_id integer, p_q vector, p_depth integer, p_filter api.search_filter,
            p_filtered boolean, OUT ids bigint[], OUT sims float8[], OUT far float8)
        LANGUAGE plpgsql STABLE
        AS $body$
        BEGIN
            CASE p_space_id %s ELSE PERFORM api.raise_invalid_space(p_space_id::text); END CASE;
        END
        $body$
        $f$, v_nearest);
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION api.space_sims(
            p_space_id integer, p_q vector, p_collection integer, p_ids bigint[],
            p_known_ids bigint[] DEFAULT '{}', p_known_sims float8[] DEFAULT '{}')
        RETURNS float8[]
        LANGUAGE plpgsql STABLE
        AS $body$
        BEGIN
            IF coalesce(cardinality(p_ids), 0) = 0 THEN
                RETURN '{}';
            END IF;
            CASE p_space_id %s ELSE PERFORM api.raise_invalid_space(p_space_id::text); END CASE;
        END
        $body$
        $f$, v_sims);
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION api.space_measures(
            p_space_id integer, p_q vector, p_collection integer, p_ids bigint[],
            OUT sims float8[], OUT l2 float8[])
        LANGUAGE plpgsql STABLE
        AS $body$
        BEGIN
            CASE p_space_id %s ELSE PERFORM api.raise_invalid_space(p_space_id::text); END CASE;
        END
        $body$
        $f$, v_measures);
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION api.space_region(
            p_space_id integer, p api.search_plan, p_space integer, p_boxes box[],
            p_sigma float8, p_theta float8, p_lex_ids bigint[], p_lex_scores float8[],
            p_limit integer, OUT ids bigint[], OUT sims float8[], OUT region integer)
        LANGUAGE plpgsql STABLE
        AS $body$
        BEGIN
            CASE p_space_id %s ELSE PERFORM api.raise_invalid_space(p_space_id::text); END CASE;
        END
        $body$
        $f$, v_region);
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION api.space_score(
            p_space_id integer, p api.search_plan, p_space integer, p_ids bigint[],
            p_known_ids bigint[], p_known_sims float8[], p_lex_ids bigint[],
            p_lex_scores float8[],
            OUT ids bigint[], OUT chunk_ids text[], OUT sources text[], OUT scores float8[])
        LANGUAGE plpgsql STABLE
        AS $body$
        BEGIN
            CASE p_space_id %s ELSE PERFORM api.raise_invalid_space(p_space_id::text); END CASE;
        END
        $body$
        $f$, v_score);
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION api.space_walk(
            p_space_id integer, p api.search_plan, p_space integer, p_depth integer,
            p_extra bigint[], p_skip bigint[], p_lex_ids bigint[], p_lex_scores float8[],
            OUT walked integer, OUT far float8,
            OUT ids bigint[], OUT chunk_ids text[], OUT sources text[], OUT scores float8[])
        LANGUAGE plpgsql STABLE
        AS $body$
        BEGIN
            CASE p_space_id %s ELSE PERFORM api.raise_invalid_space(p_space_id::text); END CASE;
        END
        $body$
        $f$, v_walk);
END
$$;

SELECT api.create_space_functions(id) FROM rag.spaces ORDER BY id;
SELECT api.create_space_dispatch();
