-- Every function and type of schema api is dropped and created again by the files after
-- this one, in the same transaction, so a signature, a return type or a type's fields can
-- change between versions. No CASCADE: if anything outside schema api ever depends on
-- one of them, this fails loudly instead.
DO $$
DECLARE
    v_function regprocedure;
    v_type regtype;
BEGIN
    FOR v_function IN
        SELECT p.oid::regprocedure FROM pg_proc p WHERE p.pronamespace = 'api'::regnamespace
    LOOP
        EXECUTE format('DROP FUNCTION %s', v_function);
    END LOOP;
    FOR v_type IN
        SELECT t.oid::regtype FROM pg_type t JOIN pg_class c ON c.oid = t.typrelid
        WHERE t.typnamespace = 'api'::regnamespace AND c.relkind = 'c'
        ORDER BY t.oid DESC
    LOOP
        EXECUTE format('DROP TYPE %s', v_type);
    END LOOP;
END
$$;
