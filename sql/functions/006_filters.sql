-- Filters: which chunks a search may return.
--
-- A request's filters (p_filters jsonb) become one api.search_filter value:
--   doc_ids         the chunk's document is one of these
--   src_prefix      src starts with this (matched with LIKE, its metacharacters escaped)
--   tags_any        the chunk has at least one of these tags
--   tags_all        ... every one of them
--   created_after   created_at >= this;  created_before: created_at < this
--   filter          a condition on the chunk's metadata merged over its document's
--                   (rag.chunks.meta), in the query language below, compiled to a
--                   SQL/JSON path predicate (jsonb @@ jsonpath, GIN-indexed)
--
-- The metadata language is MongoDB's, as Pinecone, Chroma and LangChain's vector stores
-- use it, so filters written for those work here unchanged:
--   {"year": 2024}                          equality (on an array: any element)
--   {"year": {"$gte": 2020, "$lt": 2025}}   $eq $ne $gt $gte $lt $lte, $in $nin [..],
--                                           $exists true|false
--   {"author.name": "Ada"}                  dotted keys reach into objects
--   {"$and": [..]}, {"$or": [..]}, {"$nor": [..]}, {"$not": {..}}
--   several keys in one object: all must hold
-- Values are strings, numbers, booleans or null; ranges compare numbers with numbers and
-- strings with strings (ISO 8601 dates compare as text: write them in one format).
-- $ne and $nin also match chunks without the key, as in MongoDB.

CREATE FUNCTION api.jsonb_text_array(p_value jsonb)
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT ARRAY(SELECT jsonb_array_elements_text(p_value)) $$;

-- A dotted key as a jsonpath accessor: "author.name" -> $."author"."name".
CREATE FUNCTION api.metadata_key_path(p_key text, p_where text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    v_parts text[] := string_to_array(p_key, '.');
BEGIN
    IF p_key = '' OR array_position(v_parts, '') IS NOT NULL OR cardinality(v_parts) > 16
       OR length(p_key) > 512 THEN
        PERFORM api.raise_bad_argument(format(
            '%s: "%s" is not a metadata key (non-empty names joined by dots, at most 16 '
            'levels and 512 characters)', p_where, left(p_key, 100)));
    END IF;
    RETURN '$' || (SELECT string_agg('.' || to_jsonb(part)::text, '' ORDER BY n)
                   FROM unnest(v_parts) WITH ORDINALITY AS u(part, n));
END
$$;

CREATE FUNCTION api.metadata_value(p_value jsonb, p_where text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    IF jsonb_typeof(p_value) NOT IN ('string', 'number', 'boolean', 'null') THEN
        PERFORM api.raise_bad_argument(format(
            '%s: a metadata value must be a string, number, boolean or null', p_where));
    END IF;
    IF jsonb_typeof(p_value) = 'string' AND length(p_value #>> '{}') > 4096 THEN
        PERFORM api.raise_bad_argument(format('%s: at most 4096 characters', p_where));
    END IF;
    RETURN p_value::text;
END
$$;

CREATE FUNCTION api.metadata_any(p_path text, p_values jsonb, p_where text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    IF jsonb_typeof(p_values) <> 'array' OR jsonb_array_length(p_values) > 1000 THEN
        PERFORM api.raise_bad_argument(format('%s must be an array of at most 1000 values',
                                              p_where));
    END IF;
    IF jsonb_array_length(p_values) = 0 THEN
        RETURN '(1 == 0)';
    END IF;
    RETURN '(' || (SELECT string_agg(format('%s == %s', p_path,
                                            api.metadata_value(v, p_where || '[' || (n - 1) || ']')),
                                     ' || ' ORDER BY n)
                   FROM jsonb_array_elements(p_values) WITH ORDINALITY AS e(v, n)) || ')';
END
$$;

-- One condition on one key: {"$gte": 1, "$lt": 5}, or a bare value (equality).
CREATE FUNCTION api.metadata_condition(p_key text, p_condition jsonb, p_where text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    v_path text := api.metadata_key_path(p_key, p_where);
    v_parts text[] := '{}';
    v_op text;
    v_value jsonb;
    v_at text;
BEGIN
    IF jsonb_typeof(p_condition) <> 'object' THEN
        RETURN format('(%s == %s)', v_path, api.metadata_value(p_condition, p_where));
    END IF;
    IF p_condition = '{}' THEN
        PERFORM api.raise_bad_argument(format('%s: an empty condition', p_where));
    END IF;
    FOR v_op, v_value IN SELECT * FROM jsonb_each(p_condition) LOOP
        v_at := p_where || '.' || v_op;
        v_parts := v_parts || CASE v_op
            WHEN '$eq' THEN format('(%s == %s)', v_path, api.metadata_value(v_value, v_at))
            WHEN '$ne' THEN format('!(%s == %s)', v_path, api.metadata_value(v_value, v_at))
            WHEN '$gt' THEN format('(%s > %s)', v_path, api.metadata_value(v_value, v_at))
            WHEN '$gte' THEN format('(%s >= %s)', v_path, api.metadata_value(v_value, v_at))
            WHEN '$lt' THEN format('(%s < %s)', v_path, api.metadata_value(v_value, v_at))
            WHEN '$lte' THEN format('(%s <= %s)', v_path, api.metadata_value(v_value, v_at))
            WHEN '$in' THEN api.metadata_any(v_path, v_value, v_at)
            WHEN '$nin' THEN '!' || api.metadata_any(v_path, v_value, v_at)
            WHEN '$exists' THEN CASE jsonb_typeof(v_value)
                WHEN 'boolean' THEN CASE WHEN v_value::boolean THEN format('exists(%s)', v_path)
                                         ELSE format('!exists(%s)', v_path) END
                END
            END;
        IF v_parts[cardinality(v_parts)] IS NULL THEN
            IF v_op = '$exists' THEN
                PERFORM api.raise_bad_argument(format('%s must be true or false', v_at));
            ELSIF left(v_op, 1) = '$' THEN
                PERFORM api.raise_bad_argument(
                    format('%s: unknown operator "%s" (known: $eq, $ne, $gt, $gte, $lt, $lte, '
                           '$in, $nin, $exists)', p_where, v_op),
                    jsonb_build_object('operator', v_op));
            ELSE
                PERFORM api.raise_bad_argument(format(
                    '%s: a condition maps operators to values; reach into objects with a '
                    'dotted key ("%s.%s")', p_where, p_key, v_op));
            END IF;
        END IF;
    END LOOP;
    RETURN '(' || array_to_string(v_parts, ' && ') || ')';
END
$$;

-- A whole filter object, as a jsonpath predicate's text.
CREATE FUNCTION api.metadata_predicate(p_filter jsonb, p_where text, p_depth integer)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    v_parts text[] := '{}';
    v_key text;
    v_value jsonb;
    v_at text;
BEGIN
    IF jsonb_typeof(p_filter) <> 'object' THEN
        PERFORM api.raise_bad_argument(format('%s must be an object', p_where));
    END IF;
    IF p_depth > 8 THEN
        PERFORM api.raise_bad_argument(format('%s: nested deeper than 8 levels', p_where));
    END IF;
    FOR v_key, v_value IN SELECT * FROM jsonb_each(p_filter) LOOP
        v_at := p_where || '.' || v_key;
        IF v_key IN ('$and', '$or', '$nor') THEN
            IF jsonb_typeof(v_value) <> 'array' OR jsonb_array_length(v_value) > 100 THEN
                PERFORM api.raise_bad_argument(format(
                    '%s must be an array of at most 100 filter objects', v_at));
            END IF;
            v_parts := v_parts || coalesce(
                (CASE v_key WHEN '$nor' THEN '!' ELSE '' END) || '(' ||
                (SELECT string_agg(api.metadata_predicate(e, v_at || '[' || (n - 1) || ']',
                                                          p_depth + 1),
                                   CASE v_key WHEN '$and' THEN ' && ' ELSE ' || ' END
                                   ORDER BY n)
                 FROM jsonb_array_elements(v_value) WITH ORDINALITY AS a(e, n)) || ')',
                CASE v_key WHEN '$and' THEN '(1 == 1)' WHEN '$or' THEN '(1 == 0)'
                           ELSE '(1 == 1)' END);
        ELSIF v_key = '$not' THEN
            v_parts := v_parts || ('!' || api.metadata_predicate(v_value, v_at, p_depth + 1));
        ELSIF left(v_key, 1) = '$' THEN
            PERFORM api.raise_bad_argument(
                format('%s: unknown operator "%s" (known: $and, $or, $nor, $not, or a key)',
                       p_where, v_key),
                jsonb_build_object('operator', v_key));
        ELSE
            v_parts := v_parts || api.metadata_condition(v_key, v_value, v_at);
        END IF;
    END LOOP;
    IF cardinality(v_parts) = 0 THEN
        RETURN '(1 == 1)';
    END IF;
    RETURN '(' || array_to_string(v_parts, ' && ') || ')';
END
$$;

-- The metadata filter as a jsonpath predicate (NULL: no filter).
CREATE FUNCTION api.metadata_path(p_filter jsonb)
RETURNS jsonpath
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    IF p_filter IS NULL OR p_filter = 'null' THEN
        RETURN NULL;
    END IF;
    IF length(p_filter::text) > 100000 THEN
        PERFORM api.raise_bad_argument('filter: the filter is longer than 100000 characters');
    END IF;
    RETURN api.metadata_predicate(p_filter, 'filter', 1)::jsonpath;
END
$$;

-- Each condition of a metadata filter on its own, with where it sits in the filter
-- (for explanations: which condition a chunk fails).
CREATE FUNCTION api.metadata_conditions(p_filter jsonb, p_where text DEFAULT 'filter')
RETURNS TABLE (condition text, path jsonpath)
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    v_key text;
    v_value jsonb;
    v_op text;
    v_operand jsonb;
BEGIN
    FOR v_key, v_value IN SELECT * FROM jsonb_each(p_filter) LOOP
        IF v_key IN ('$and', '$or', '$nor') THEN
            RETURN QUERY SELECT c.condition, c.path
                FROM jsonb_array_elements(v_value) WITH ORDINALITY AS a(e, n),
                     api.metadata_conditions(e, p_where || '.' || v_key || '[' || (n - 1) || ']') c;
        ELSIF v_key = '$not' THEN
            RETURN QUERY SELECT * FROM api.metadata_conditions(v_value, p_where || '.$not');
        ELSIF jsonb_typeof(v_value) = 'object' THEN
            FOR v_op, v_operand IN SELECT * FROM jsonb_each(v_value) LOOP
                condition := format('%s.%s %s %s', p_where, v_key, v_op, v_operand);
                path := api.metadata_condition(v_key, jsonb_build_object(v_op, v_operand),
                                               p_where || '.' || v_key)::jsonpath;
                RETURN NEXT;
            END LOOP;
        ELSE
            condition := format('%s.%s = %s', p_where, v_key, v_value);
            path := api.metadata_condition(v_key, v_value, p_where || '.' || v_key)::jsonpath;
            RETURN NEXT;
        END IF;
    END LOOP;
END
$$;

CREATE FUNCTION api.like_prefix(p_prefix text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT replace(replace(replace(p_prefix, '\', '\\'), '%', '\%'), '_', '\_') || '%' $$;

CREATE FUNCTION api.make_filter(p_collection_id integer, p_filters jsonb)
RETURNS api.search_filter
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    f api.search_filter;
    v_unknown text;
BEGIN
    f.collection_id := p_collection_id;
    IF p_filters IS NULL OR p_filters = '{}' THEN
        RETURN f;
    END IF;
    SELECT k INTO v_unknown FROM jsonb_object_keys(coalesce(p_filters, '{}')) AS k
    WHERE k NOT IN ('doc_ids', 'src_prefix', 'tags_any', 'tags_all', 'created_after',
                    'created_before', 'filter')
    LIMIT 1;
    IF v_unknown IS NOT NULL THEN
        PERFORM api.raise_bad_argument(format('unknown filter "%s"', v_unknown));
    END IF;
    f.doc_ids := api.jsonb_text_array(p_filters -> 'doc_ids');
    f.src_like := api.like_prefix(p_filters ->> 'src_prefix');
    f.tags_any := api.jsonb_text_array(p_filters -> 'tags_any');
    f.tags_all := api.jsonb_text_array(p_filters -> 'tags_all');
    f.created_after := (p_filters ->> 'created_after')::timestamptz;
    f.created_before := (p_filters ->> 'created_before')::timestamptz;
    f.metadata := api.metadata_path(p_filters -> 'filter');
    IF NOT p_filters ? 'doc_ids' THEN f.doc_ids := NULL; END IF;
    IF NOT p_filters ? 'tags_any' THEN f.tags_any := NULL; END IF;
    IF NOT p_filters ? 'tags_all' THEN f.tags_all := NULL; END IF;
    RETURN f;
END
$$;

-- Whether a chunk passes a filter (every given condition). Inlined into the searches'
-- statements, where the filter is a parameter.
CREATE FUNCTION api.passes(
    f api.search_filter, p_doc_id text, p_src text, p_tags text[], p_created timestamptz,
    p_meta jsonb
) RETURNS boolean
LANGUAGE sql IMMUTABLE
AS $$
    SELECT (f.doc_ids IS NULL OR p_doc_id = ANY (f.doc_ids))
       AND (f.src_like IS NULL OR p_src LIKE f.src_like)
       AND (f.tags_any IS NULL OR p_tags && f.tags_any)
       AND (f.tags_all IS NULL OR p_tags @> f.tags_all)
       AND (f.created_after IS NULL OR p_created >= f.created_after)
       AND (f.created_before IS NULL OR p_created < f.created_before)
       AND (f.metadata IS NULL OR coalesce(p_meta @@ f.metadata, false))
$$;

-- The same filter as SQL text over "c" (rag.chunks) and the filter in parameter
-- p_param, with only the conditions given, so that a planned statement can use the
-- index of each one (the scans' statements are planned per request).
CREATE FUNCTION api.filter_sql(f api.search_filter, p_param text)
RETURNS text
LANGUAGE sql IMMUTABLE
AS $$
    SELECT concat_ws(' AND ', format('c.collection_id = (%s).collection_id', p_param),
        CASE WHEN f.doc_ids IS NOT NULL THEN format('c.doc_id = ANY ((%s).doc_ids)', p_param) END,
        CASE WHEN f.src_like IS NOT NULL THEN format('c.src LIKE (%s).src_like', p_param) END,
        CASE WHEN f.tags_any IS NOT NULL THEN format('c.tags && (%s).tags_any', p_param) END,
        CASE WHEN f.tags_all IS NOT NULL THEN format('c.tags @> (%s).tags_all', p_param) END,
        CASE WHEN f.created_after IS NOT NULL
             THEN format('c.created_at >= (%s).created_after', p_param) END,
        CASE WHEN f.created_before IS NOT NULL
             THEN format('c.created_at < (%s).created_before', p_param) END,
        CASE WHEN f.metadata IS NOT NULL THEN format('c.meta @@ (%s).metadata', p_param) END)
$$;
