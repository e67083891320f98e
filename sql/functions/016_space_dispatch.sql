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
    EXECUTE format('DROP FUNCTION IF EXISTS api.%I(api.search_plan, integer)',
                   api.space_function(p_space_id, 'walk'));
    PERFORM api.create_space_dispatch(p_space_id);
END
$$;

-- One dispatcher, api.space_<kind>(p_space_id, <p_params>): for each space in p_ids, a
-- static call of its function (p_call: the statement, %I its name); an unknown id raises
-- invalid_space.
CREATE FUNCTION api.create_dispatcher(p_kind text, p_params text, p_call text, p_ids integer[])
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_cases text := ' WHEN NULL THEN NULL;';  -- a CASE needs one WHEN, even with no spaces
BEGIN
    FOR i IN 1 .. coalesce(cardinality(p_ids), 0) LOOP
        v_cases := v_cases || format(' WHEN %s THEN ', p_ids[i])
                   || format(p_call, api.space_function(p_ids[i], p_kind));
    END LOOP;
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION api.%I(p_space_id integer, %s
        LANGUAGE plpgsql STABLE
        AS $body$
        BEGIN
            CASE p_space_id %s ELSE PERFORM api.raise_invalid_space(p_space_id::text); END CASE;
        END
        $body$
        $f$, 'space_' || p_kind, p_params, v_cases);
END
$$;

-- The dispatchers of every registered space (but p_dropped, a space being dropped).
CREATE FUNCTION api.create_space_dispatch(p_dropped integer DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_ids integer[] := ARRAY(SELECT id FROM rag.spaces
                             WHERE id IS DISTINCT FROM p_dropped ORDER BY id);
BEGIN
    PERFORM api.create_dispatcher('nearest',
        'p_q vector, p_depth integer, p_filter api.search_filter, p_filtered boolean,
         OUT ids bigint[], OUT sims float8[], OUT far float8)',
        'SELECT * INTO ids, sims, far FROM api.%I(p_q, p_depth, p_filter, p_filtered); RETURN;',
        v_ids);
    PERFORM api.create_dispatcher('sims',
        $s$p_q vector, p_collection integer, p_ids bigint[],
         p_known_ids bigint[] DEFAULT '{}', p_known_sims float8[] DEFAULT '{}')
         RETURNS float8[]$s$,
        $s$RETURN CASE WHEN coalesce(cardinality(p_ids), 0) = 0 THEN '{}'
                    ELSE api.%I(p_q, p_collection, p_ids, p_known_ids, p_known_sims) END;$s$,
        v_ids);
    PERFORM api.create_dispatcher('measures',
        'p_q vector, p_collection integer, p_ids bigint[], OUT sims float8[], OUT l2 float8[])',
        'SELECT * INTO sims, l2 FROM api.%I(p_q, p_collection, p_ids); RETURN;',
        v_ids);
    PERFORM api.create_dispatcher('region',
        'p api.search_plan, p_space integer, p_boxes box[], p_sigma float8, p_theta float8,
         p_lex_ids bigint[], p_lex_scores float8[], p_limit integer,
         OUT ids bigint[], OUT sims float8[], OUT region integer)',
        'SELECT * INTO ids, sims, region FROM api.%I(p, p_space, p_boxes, p_sigma, p_theta,
                                                     p_lex_ids, p_lex_scores, p_limit); RETURN;',
        v_ids);
    PERFORM api.create_dispatcher('score',
        'p api.search_plan, p_space integer, p_ids bigint[], p_known_ids bigint[],
         p_known_sims float8[], p_lex_ids bigint[], p_lex_scores float8[],
         OUT ids bigint[], OUT chunk_ids text[], OUT sources text[], OUT scores float8[])',
        'SELECT * INTO ids, chunk_ids, sources, scores
         FROM api.%I(p, p_space, p_ids, p_known_ids, p_known_sims, p_lex_ids, p_lex_scores);
         RETURN;',
        v_ids);
    PERFORM api.create_dispatcher('walk',
        'p api.search_plan, p_space integer) RETURNS refcursor',
        'RETURN api.%I(p, p_space);',
        v_ids);
END
$$;

SELECT api.create_space_functions(id) FROM rag.spaces ORDER BY id;
SELECT api.create_space_dispatch();
