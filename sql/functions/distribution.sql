-- The schema on a Citus cluster (app/db/distribution.py distributes it; on one node every
-- function here does nothing or is never called).
--
-- Layout: the per-collection tables (rag.documents, rag.chunks, the keyword postings and
-- frequencies, tag and collection counts, each space's vectors: every table with a
-- collection_id) are distributed by collection_id and co-located, so that a collection
-- lives whole on one worker, every table and index of it beside the others; the small
-- tables (spaces, collections, profiles, goals) are reference tables, on every node.
--
-- Searches run beside the data. api.topk, api.explain, api.space_topk and api.outranking
-- are, on Citus, dispatchers distributed by their first argument (the collection): Citus
-- sends a call whole to the worker holding the collection, in one round trip. There, the dispatcher
-- calls a copy of the search functions made for that collection's shard group: the same
-- definitions with every table of schema rag named by its shard there (rag.chunks ->
-- rag.chunks_102016) and every function of schema api by its copy (api_s102008.*). Those
-- run as on one node, plain PostgreSQL on local tables, from cached plans; the tables'
-- own names would go through Citus's planner on every statement, which plans each one
-- again and reads a cursor's rows all at once. The function as written stays as
-- api.<entry>_unrouted.
--
-- A call that runs where the collection is not stored (nested in another function, as in
-- api.rag_topk_weighted, which Citus does not send anywhere) is sent on to the worker
-- holding it as a statement of its own (master_run_on_worker: a connection per call).
--
-- A worker builds the copies of a shard group the first time a call for one of its
-- collections arrives, or after the functions changed (the dispatchers carry the
-- version of the definitions they were made from), in schema api_s<shard of
-- rag.documents>. The coordinator creates those schemas (Citus gives them to every node)
-- and drops them before the functions are applied again.

-- The entries routed by collection.
CREATE FUNCTION api.routed_entries()
RETURNS SETOF text
LANGUAGE sql IMMUTABLE
AS $$ VALUES ('topk'), ('explain'), ('space_topk'), ('outranking'), ('rrf_part_nearest'),
          ('rrf_part_windows'), ('rrf_part_topk') $$;

-- Whether the schema is distributed (rag.documents is a Citus table).
CREATE FUNCTION api.distributed()
RETURNS boolean
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_found boolean := false;
BEGIN
    IF to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL THEN
        EXECUTE 'SELECT EXISTS (SELECT 1 FROM pg_dist_partition
                                WHERE logicalrelid = ''rag.documents''::regclass)'
        INTO v_found;
    END IF;
    RETURN v_found;
END
$$;

-- The shards each per-collection partition is split into: 1 on one node; on Citus one per
-- shard group, each on its worker, so that a statement over every collection's partitions
-- locks each of those shards (app/resources/collection_limit.py).
CREATE FUNCTION api.partition_shards()
RETURNS integer
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_shards integer := 1;
BEGIN
    IF api.distributed() THEN
        EXECUTE 'SELECT count(*) FROM pg_dist_shard WHERE logicalrelid = ''rag.chunks''::regclass'
        INTO v_shards;
    END IF;
    RETURN greatest(v_shards, 1);
END
$$;

-- A table created once the schema is distributed (a space's vectors, any per-space or
-- per-collection table a feature adds): with a collection_id NOT NULL, distributed by it
-- beside the collections' other tables, else a reference table; then the routing made
-- again. Call it after creating the table (and its indexes and triggers): it does nothing
-- on one node, for a partition (it follows its parent) or for a table Citus has already.
CREATE FUNCTION api.distribute_table(p_table regclass)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_known boolean;
BEGIN
    IF NOT api.distributed()
       OR (SELECT relispartition FROM pg_class WHERE oid = p_table) THEN
        RETURN;
    END IF;
    EXECUTE 'SELECT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = $1)'
    INTO v_known USING p_table;
    IF v_known THEN
        RETURN;
    END IF;
    -- (over one connection per node: the routing's schemas are created after it)
    PERFORM set_config('citus.multi_shard_modify_mode', 'sequential', true);
    PERFORM set_config('citus.enable_unsafe_triggers', 'on', true);
    IF EXISTS (SELECT 1 FROM pg_attribute
               WHERE attrelid = p_table AND attname = 'collection_id' AND attnotnull
                 AND NOT attisdropped) THEN
        EXECUTE 'SELECT create_distributed_table($1, ''collection_id'',
                                                 colocate_with => ''rag.documents'')'
        USING p_table;
    ELSE
        EXECUTE 'SELECT create_reference_table($1)' USING p_table;
    END IF;
    PERFORM api.install_routing();
END
$$;

-- Something the copies are made from changed (the spaces and their functions).
CREATE FUNCTION api.routing_changed()
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    IF api.distributed() THEN
        PERFORM api.install_routing();
    END IF;
END
$$;

-- The shard ids of rag.documents, one per shard group, in hash order.
CREATE FUNCTION api.shard_groups()
RETURNS SETOF bigint
LANGUAGE plpgsql STABLE
AS $$
BEGIN
    RETURN QUERY EXECUTE 'SELECT shardid FROM pg_dist_shard
                          WHERE logicalrelid = ''rag.documents''::regclass
                          ORDER BY shardminvalue::bigint';
END
$$;

-- A fingerprint of what the copies are made from: the definitions of schema api (but
-- the dispatchers) and the distributed tables (partitions, one per collection, aside).
CREATE FUNCTION api.routing_version()
RETURNS text
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_text text;
BEGIN
    EXECUTE $q$
        SELECT md5(coalesce((SELECT string_agg(pg_get_functiondef(p.oid), '' ORDER BY p.oid)
                             FROM pg_proc p
                             WHERE p.pronamespace = 'api'::regnamespace AND p.prokind = 'f'
                               AND p.proname NOT IN (SELECT api.routed_entries())), '')
                   || coalesce((SELECT string_agg(d.logicalrelid::text, ',' ORDER BY d.logicalrelid)
                                FROM pg_dist_partition d JOIN pg_class c ON c.oid = d.logicalrelid
                                WHERE NOT c.relispartition), ''))$q$
    INTO v_text;
    RETURN left(v_text, 12);
END
$$;

-- On the coordinator: every function of schemas api and rag given to every node, the
-- schemas of the copies, and the dispatchers (each entry renamed <entry>_unrouted first).
CREATE FUNCTION api.install_routing()
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    v_entry text;
    v_function regprocedure;
    v_version text;
    v_shard bigint;
BEGIN
    FOR v_entry IN SELECT api.routed_entries() LOOP
        SELECT p.oid INTO v_function FROM pg_proc p
        WHERE p.pronamespace = 'api'::regnamespace AND p.proname = v_entry;
        IF to_regproc(format('api.%I', v_entry || '_unrouted')) IS NULL THEN
            EXECUTE format('ALTER FUNCTION %s RENAME TO %I', v_function,
                           v_entry || '_unrouted');
        END IF;
    END LOOP;
    EXECUTE $q$
        SELECT count(create_distributed_function(p.oid::regprocedure))
        FROM pg_proc p
        WHERE p.pronamespace IN ('api'::regnamespace, 'rag'::regnamespace) AND p.prokind = 'f'
          AND NOT EXISTS (SELECT 1 FROM pg_dist_object o
                          WHERE o.classid = 'pg_proc'::regclass AND o.objid = p.oid)$q$;
    FOR v_shard IN SELECT api.shard_groups() LOOP
        EXECUTE format('CREATE SCHEMA IF NOT EXISTS %I', 'api_s' || v_shard);
    END LOOP;
    v_version := api.routing_version();
    FOR v_entry IN SELECT api.routed_entries() LOOP
        EXECUTE api.dispatcher_sql(v_entry, v_version);
        SELECT p.oid INTO v_function FROM pg_proc p
        WHERE p.pronamespace = 'api'::regnamespace AND p.proname = v_entry;
        EXECUTE 'SELECT create_distributed_function($1::regprocedure, ''p_collection'',
                                                    colocate_with => ''rag.documents'')'
        USING v_function::text;
    END LOOP;
    RETURN v_version;
END
$$;

-- The dispatcher of one entry: the function's own arguments, a call of the copy in the
-- collection's shard group, and the same call sent on where the collection is stored.
CREATE FUNCTION api.dispatcher_sql(p_entry text, p_version text)
RETURNS text
LANGUAGE sql STABLE
AS $$
    SELECT format(
        'CREATE OR REPLACE FUNCTION api.%I(%s) RETURNS %s LANGUAGE plpgsql AS %L',
        p_entry, pg_get_function_arguments(p.oid), pg_get_function_result(p.oid),
        format(E'DECLARE\n    v_shard bigint := api.routed_shard(p_collection, %L);\n'
               || E'BEGIN\n    IF v_shard IS NULL THEN\n'
               || E'        RETURN api.forward(p_collection, format(%L, %s))::%s;\n'
               || E'    END IF;\n    CASE v_shard%s\n    END CASE;\nEND',
               p_version, format('SELECT api.%I(%%s)', p_entry),
               (SELECT string_agg(format('quote_nullable(%I) || %L', name,
                                         '::' || format_type(type, NULL)),
                                  ' || '', '' || ' ORDER BY n)
                FROM unnest(p.proargnames, p.proargtypes::oid[]) WITH ORDINALITY
                     AS a(name, type, n)),
               pg_get_function_result(p.oid),
               (SELECT string_agg(format(E'\n    WHEN %s THEN RETURN %I.%I(%s);', shard,
                                         'api_s' || shard, p.proname,
                                         array_to_string(p.proargnames, ', ')),
                                  '' ORDER BY shard)
                FROM api.shard_groups() AS shard)))
    FROM pg_proc p
    WHERE p.pronamespace = 'api'::regnamespace AND p.proname = p_entry || '_unrouted'
$$;

-- A call's statement run on the worker holding the collection, on a connection of its
-- own; what it returned, as text.
CREATE FUNCTION api.forward(p_collection integer, p_statement text)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    v_node record;
    v_answer record;
BEGIN
    SELECT n.nodename, n.nodeport INTO STRICT v_node
    FROM pg_dist_placement pl JOIN pg_dist_node n ON n.groupid = pl.groupid
    WHERE pl.shardid = get_shard_id_for_distribution_column('rag.documents', p_collection)
      AND n.noderole = 'primary';
    SELECT * INTO v_answer
    FROM master_run_on_worker(ARRAY[v_node.nodename], ARRAY[v_node.nodeport::integer],
                              ARRAY[p_statement], false);
    IF NOT v_answer.success THEN
        RAISE EXCEPTION '%', v_answer.result
            USING DETAIL = format('on %s:%s', v_node.nodename, v_node.nodeport);
    END IF;
    RETURN v_answer.result;
END
$$;

-- On the worker a call was routed to: the shard group of the collection, its copies
-- built first if they are missing or older than p_version; NULL where the collection is
-- not stored.
CREATE FUNCTION api.routed_shard(p_collection integer, p_version text)
RETURNS bigint
LANGUAGE plpgsql
AS $$
DECLARE
    v_shard bigint := get_shard_id_for_distribution_column('rag.documents', p_collection);
BEGIN
    IF to_regclass(format('rag.%I', 'documents_' || v_shard)) IS NULL THEN
        RETURN NULL;
    END IF;
    IF to_regprocedure(format('%I.%I()', 'api_s' || v_shard, 'routing_' || p_version))
       IS NULL THEN
        PERFORM api.build_copies(v_shard, p_version);
    END IF;
    RETURN v_shard;
END
$$;

-- The functions a routed entry calls, directly or not, and the entry (by name).
CREATE FUNCTION api.routed_closure()
RETURNS text[]
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    v_names text[] := ARRAY(SELECT e || '_unrouted' FROM api.routed_entries() e);
    v_more text[];
BEGIN
    LOOP
        v_more := ARRAY(
            SELECT DISTINCT m[1]
            FROM pg_proc p, regexp_matches(pg_get_functiondef(p.oid),
                                           '\mapi\.([a-z0-9_]+)\s*\(', 'g') AS m
            WHERE p.pronamespace = 'api'::regnamespace AND p.prokind = 'f'
              AND p.proname = ANY (v_names)
            EXCEPT SELECT unnest(v_names));
        v_more := ARRAY(SELECT n FROM unnest(v_more) n
                        WHERE EXISTS (SELECT 1 FROM pg_proc p
                                      WHERE p.pronamespace = 'api'::regnamespace
                                        AND p.proname = n)
                          AND n NOT IN (SELECT api.routed_entries()));
        EXIT WHEN cardinality(v_more) = 0;
        v_names := v_names || v_more;
    END LOOP;
    RETURN v_names;
END
$$;

-- Each table of schema rag and its shard in the group of p_shard (a reference table's
-- only shard), longest names first.
CREATE FUNCTION api.group_tables(p_shard bigint)
RETURNS TABLE (name text, shard_name text)
LANGUAGE plpgsql STABLE
AS $$
BEGIN
    RETURN QUERY EXECUTE $q$
        SELECT c.relname::text, c.relname || '_' || o.shardid
        FROM pg_dist_shard s
        JOIN pg_dist_shard o ON o.shardminvalue = s.shardminvalue OR o.shardminvalue IS NULL
        JOIN pg_class c ON c.oid = o.logicalrelid
        WHERE s.shardid = $1 AND c.relnamespace = 'rag'::regnamespace AND NOT c.relispartition
        ORDER BY length(c.relname) DESC, c.relname$q$
    USING p_shard;
END
$$;

-- The copies of the routed functions for the shard group of p_shard, in api_s<p_shard>
-- (on this node only), and a marker function routing_<p_version>.
CREATE FUNCTION api.build_copies(p_shard bigint, p_version text)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    v_schema text := 'api_s' || p_shard;
    v_names text[] := api.routed_closure();
    v_calls text := '\mapi\.(' || array_to_string(v_names, '|') || ')(\s*\()';
    v_tables record;
    v_function record;
    v_definition text;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('ragsearch.routing'), hashtext(v_schema));
    IF to_regprocedure(format('%I.%I()', v_schema, 'routing_' || p_version)) IS NOT NULL THEN
        RETURN;  -- built by the call we waited for
    END IF;
    PERFORM set_config('citus.enable_ddl_propagation', 'off', true);
    PERFORM set_config('check_function_bodies', 'off', true);  -- created in no set order
    EXECUTE format('CREATE SCHEMA IF NOT EXISTS %I', v_schema);
    FOR v_function IN
        SELECT p.oid::regprocedure AS signature FROM pg_proc p
        WHERE p.pronamespace = v_schema::regnamespace
    LOOP
        EXECUTE format('DROP FUNCTION %s', v_function.signature);
    END LOOP;
    FOR v_function IN
        SELECT p.oid, p.proname FROM pg_proc p
        WHERE p.pronamespace = 'api'::regnamespace AND p.proname = ANY (v_names)
    LOOP
        v_definition := regexp_replace(pg_get_functiondef(v_function.oid), v_calls,
                                       v_schema || '.\1\2', 'g');
        FOR v_tables IN SELECT * FROM api.group_tables(p_shard) LOOP
            v_definition := regexp_replace(v_definition, '\mrag\.' || v_tables.name || '\M',
                                           'rag.' || v_tables.shard_name, 'g');
        END LOOP;
        EXECUTE coalesce(api.routed_override(v_function.proname, v_schema, p_shard),
                         v_definition);
    END LOOP;
    EXECUTE format('CREATE FUNCTION %I.%I() RETURNS void LANGUAGE sql AS %L', v_schema,
                   'routing_' || p_version, '');
END
$$;

-- The copies that compute table names: a space's vector table is its shard here, and an
-- HNSW index is looked up by its name on the shard of the collection's partition.
CREATE FUNCTION api.routed_override(p_function name, p_schema text, p_shard bigint)
RETURNS text
LANGUAGE plpgsql STABLE
AS $$
BEGIN
    IF p_function = 'vector_table' THEN
        RETURN format(
            'CREATE FUNCTION %I.vector_table(p_space_id integer) RETURNS text
             LANGUAGE sql IMMUTABLE PARALLEL SAFE AS %L', p_schema,
            format('SELECT CASE p_space_id %s ELSE ''vectors_'' || p_space_id END',
                   coalesce((SELECT string_agg(format('WHEN %s THEN %L',
                                                      substring(t.name from 9), t.shard_name),
                                               ' ')
                             FROM api.group_tables(p_shard) t
                             WHERE t.name ~ '^vectors_\d+$'), '')));
    ELSIF p_function = 'space_index_exists' THEN
        RETURN format(
            'CREATE FUNCTION %I.space_index_exists(p_space_id integer, p_collection_id integer)
             RETURNS boolean LANGUAGE sql STABLE AS %L', p_schema,
            $body$
            SELECT to_regclass(format('rag.%I', api.hnsw_index(p_space_id, p_collection_id)
                || '_' || get_shard_id_for_distribution_column(
                    format('rag.%I', api.vector_partition(p_space_id, p_collection_id))::regclass,
                    p_collection_id))) IS NOT NULL
            $body$);
    END IF;
    RETURN NULL;
END
$$;
