-- The errors api.* functions raise. They use two SQLSTATEs of their own, which the
-- service maps to HTTP statuses: RG400 (bad argument, 400), RG404 (unknown object, 404)
-- and RG409 (the stored state forbids it, 409). DETAIL, when present, is a JSON object of extra fields for the error body.

CREATE FUNCTION api.raise_bad_argument(p_message text, p_detail jsonb DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'RG400', MESSAGE = p_message,
        DETAIL = coalesce(p_detail::text, '');
END
$$;

CREATE FUNCTION api.raise_not_found(p_message text, p_detail jsonb DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'RG404', MESSAGE = p_message,
        DETAIL = coalesce(p_detail::text, '');
END
$$;

CREATE FUNCTION api.raise_conflict(p_message text, p_detail jsonb DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'RG409', MESSAGE = p_message,
        DETAIL = coalesce(p_detail::text, '');
END
$$;

-- A space id no dispatcher knows: the space was dropped after the request resolved its
-- name (the service checks names first), and the request is to be sent again.
CREATE FUNCTION api.raise_space_dropped()
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM api.raise_conflict(
        'an embedding space this request uses was dropped while it ran; send it again',
        jsonb_build_object('dropped', true, 'valid_spaces',
                           (SELECT coalesce(jsonb_agg(name ORDER BY id), '[]') FROM rag.spaces)));
END
$$;

-- The one shape of "unknown embedding space" (app/errors.py builds the same body).
CREATE FUNCTION api.raise_invalid_space(p_space text)
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM api.raise_bad_argument('invalid_space', jsonb_build_object(
        'message', format('unknown embedding space %s; valid spaces: %s', quote_literal(p_space),
                          (SELECT string_agg(name, ', ' ORDER BY id) FROM rag.spaces)),
        'space', p_space,
        'valid_spaces', (SELECT coalesce(jsonb_agg(name ORDER BY id), '[]') FROM rag.spaces)));
END
$$;
