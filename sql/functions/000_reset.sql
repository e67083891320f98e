-- Every function of schema api is dropped and created again by the files after this one,
-- in the same transaction, so a signature or return type can change between versions.
-- No CASCADE: if anything ever depends on an api function, this fails loudly instead.
DO $$
DECLARE
    v_function regprocedure;
BEGIN
    FOR v_function IN
        SELECT p.oid::regprocedure FROM pg_proc p WHERE p.pronamespace = 'api'::regnamespace
    LOOP
        EXECUTE format('DROP FUNCTION %s', v_function);
    END LOOP;
END
$$;
