-- The dispatchers of the per-space functions (space_functions.sql): api.space_<kind>(space
-- id, the kind's parameters) calls that space's function. They are generated from the
-- same descriptions (a CASE over the registered spaces, static calls) after every change
-- to the registry, so that each call is planned once per connection like the functions it
-- reaches. An unknown id (a space dropped while a request ran) raises a conflict.

-- The statement that calls function p_function with the spec's parameters and returns
-- what it returns.
CREATE FUNCTION api.spec_call(s api.space_function_signature, p_function text)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
    SELECT CASE WHEN cardinality(s.outs) > 0
                THEN format('SELECT * INTO %s FROM api.%I(%s); RETURN;', outs, p_function, args)
                ELSE format('RETURN api.%I(%s);', p_function, args) END
    FROM (SELECT array_to_string(ARRAY(SELECT split_part(a, ' ', 1) FROM unnest(s.params) a),
                                 ', ') AS args,
                 array_to_string(ARRAY(SELECT split_part(o, ' ', 1) FROM unnest(s.outs) o),
                                 ', ') AS outs) names
$$;

-- One function's dispatcher over the spaces p_ids.
CREATE FUNCTION api.dispatcher_sql(s api.space_function_signature, p_ids integer[])
RETURNS text
LANGUAGE sql STABLE
AS $$
    SELECT format(
        'CREATE OR REPLACE FUNCTION api.%I(p_space_id integer, %s) %s LANGUAGE plpgsql STABLE '
        || '%s AS %L', 'space_' || s.name, api.spec_parameters(s),
        CASE WHEN s.returns IS NOT NULL THEN 'RETURNS ' || s.returns ELSE '' END,
        CASE WHEN (SELECT bool_and(b.options LIKE '%PARALLEL SAFE%')
                   FROM api.space_function_bodies() b WHERE b.name = s.name)
             THEN 'PARALLEL SAFE' ELSE '' END,  -- as safe as what it calls (a scan's maxsim)
        format(E'BEGIN\n    CASE p_space_id WHEN NULL THEN NULL;%s\n'
               || E'    ELSE PERFORM api.raise_space_dropped();\n    END CASE;\nEND',
               coalesce(string_agg(format(E'\n    WHEN %s THEN %s', id,
                                          api.spec_call(s, api.space_function(id, s.name))),
                                   '' ORDER BY id), '')))
    FROM unnest(p_ids) AS id
$$;

-- The dispatchers of every registered space (but p_dropped, a space being dropped): each
-- over the spaces whose kind has that function.
CREATE FUNCTION api.create_space_dispatch(p_dropped integer DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    s api.space_function_signature;
BEGIN
    FOR s IN SELECT * FROM api.space_function_signatures() LOOP
        EXECUTE api.dispatcher_sql(s, ARRAY(
            SELECT sp.id FROM rag.spaces sp
            WHERE sp.id IS DISTINCT FROM p_dropped
              AND EXISTS (SELECT 1 FROM api.space_function_bodies() b
                          WHERE b.name = s.name AND b.space_kind = sp.kind)
            ORDER BY sp.id));
    END LOOP;
END
$$;

SELECT api.create_space_functions(id) FROM rag.spaces ORDER BY id;
SELECT api.create_space_dispatch();
