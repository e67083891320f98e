CREATE OR REPLACE FUNCTION api.space_nearest(p_space_id integer, p api.search_plan, p_space integer, p_depth integer, OUT ids bigint[], OUT sims double precision[], OUT bound double precision)
 RETURNS record
 LANGUAGE plpgsql
 STABLE
AS $function$BEGIN
    CASE p_space_id WHEN NULL THEN NULL;
    WHEN 1 THEN SELECT * INTO ids, sims, bound FROM api.space_1_nearest(p, p_space, p_depth); RETURN;
    WHEN <golden_dense> THEN SELECT * INTO ids, sims, bound FROM api.space_<golden_dense>_nearest(p, p_space, p_depth); RETURN;
    WHEN <golden_sparse> THEN SELECT * INTO ids, sims, bound FROM api.space_<golden_sparse>_nearest(p, p_space, p_depth); RETURN;
    WHEN <golden_multivector> THEN SELECT * INTO ids, sims, bound FROM api.space_<golden_multivector>_nearest(p, p_space, p_depth); RETURN;
    ELSE PERFORM api.raise_space_dropped();
    END CASE;
END$function$

CREATE OR REPLACE FUNCTION api.space_walk(p_space_id integer, p api.search_plan, p_space integer)
 RETURNS refcursor
 LANGUAGE plpgsql
 STABLE
AS $function$BEGIN
    CASE p_space_id WHEN NULL THEN NULL;
    WHEN 1 THEN RETURN api.space_1_walk(p, p_space);
    WHEN <golden_dense> THEN RETURN api.space_<golden_dense>_walk(p, p_space);
    ELSE PERFORM api.raise_space_dropped();
    END CASE;
END$function$

CREATE OR REPLACE FUNCTION api.space_region(p_space_id integer, p api.search_plan, p_space integer, p_boxes box[], p_sigma double precision, p_theta double precision, p_lex_ids bigint[], p_lex_scores double precision[], p_limit integer, OUT ids bigint[], OUT sims double precision[], OUT region integer)
 RETURNS record
 LANGUAGE plpgsql
 STABLE
AS $function$BEGIN
    CASE p_space_id WHEN NULL THEN NULL;
    WHEN 1 THEN SELECT * INTO ids, sims, region FROM api.space_1_region(p, p_space, p_boxes, p_sigma, p_theta, p_lex_ids, p_lex_scores, p_limit); RETURN;
    WHEN <golden_dense> THEN SELECT * INTO ids, sims, region FROM api.space_<golden_dense>_region(p, p_space, p_boxes, p_sigma, p_theta, p_lex_ids, p_lex_scores, p_limit); RETURN;
    ELSE PERFORM api.raise_space_dropped();
    END CASE;
END$function$

CREATE OR REPLACE FUNCTION api.space_score(p_space_id integer, p api.search_plan, p_space integer, p_ids bigint[], p_known_ids bigint[], p_known_sims double precision[], p_lex_ids bigint[], p_lex_scores double precision[], OUT ids bigint[], OUT chunk_ids text[], OUT sources text[], OUT scores double precision[])
 RETURNS record
 LANGUAGE plpgsql
 STABLE
AS $function$BEGIN
    CASE p_space_id WHEN NULL THEN NULL;
    WHEN 1 THEN SELECT * INTO ids, chunk_ids, sources, scores FROM api.space_1_score(p, p_space, p_ids, p_known_ids, p_known_sims, p_lex_ids, p_lex_scores); RETURN;
    WHEN <golden_dense> THEN SELECT * INTO ids, chunk_ids, sources, scores FROM api.space_<golden_dense>_score(p, p_space, p_ids, p_known_ids, p_known_sims, p_lex_ids, p_lex_scores); RETURN;
    ELSE PERFORM api.raise_space_dropped();
    END CASE;
END$function$

CREATE OR REPLACE FUNCTION api.space_sims(p_space_id integer, p api.search_plan, p_space integer, p_ids bigint[], p_known_ids bigint[] DEFAULT '{}'::bigint[], p_known_sims double precision[] DEFAULT '{}'::double precision[])
 RETURNS double precision[]
 LANGUAGE plpgsql
 STABLE
AS $function$BEGIN
    CASE p_space_id WHEN NULL THEN NULL;
    WHEN 1 THEN RETURN api.space_1_sims(p, p_space, p_ids, p_known_ids, p_known_sims);
    WHEN <golden_dense> THEN RETURN api.space_<golden_dense>_sims(p, p_space, p_ids, p_known_ids, p_known_sims);
    WHEN <golden_sparse> THEN RETURN api.space_<golden_sparse>_sims(p, p_space, p_ids, p_known_ids, p_known_sims);
    WHEN <golden_multivector> THEN RETURN api.space_<golden_multivector>_sims(p, p_space, p_ids, p_known_ids, p_known_sims);
    ELSE PERFORM api.raise_space_dropped();
    END CASE;
END$function$

CREATE OR REPLACE FUNCTION api.space_measures(p_space_id integer, p api.search_plan, p_space integer, p_ids bigint[], OUT sims double precision[], OUT l2 double precision[])
 RETURNS record
 LANGUAGE plpgsql
 STABLE
AS $function$BEGIN
    CASE p_space_id WHEN NULL THEN NULL;
    WHEN 1 THEN SELECT * INTO sims, l2 FROM api.space_1_measures(p, p_space, p_ids); RETURN;
    WHEN <golden_dense> THEN SELECT * INTO sims, l2 FROM api.space_<golden_dense>_measures(p, p_space, p_ids); RETURN;
    WHEN <golden_sparse> THEN SELECT * INTO sims, l2 FROM api.space_<golden_sparse>_measures(p, p_space, p_ids); RETURN;
    WHEN <golden_multivector> THEN SELECT * INTO sims, l2 FROM api.space_<golden_multivector>_measures(p, p_space, p_ids); RETURN;
    ELSE PERFORM api.raise_space_dropped();
    END CASE;
END$function$

CREATE OR REPLACE FUNCTION api.space_maxsim(p_space_id integer, p_tokens vector[], p_collection integer, p_id bigint)
 RETURNS double precision
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
AS $function$BEGIN
    CASE p_space_id WHEN NULL THEN NULL;
    WHEN <golden_multivector> THEN RETURN api.space_<golden_multivector>_maxsim(p_tokens, p_collection, p_id);
    ELSE PERFORM api.raise_space_dropped();
    END CASE;
END$function$

CREATE OR REPLACE FUNCTION api.space_sample(p_space_id integer, p api.search_plan, p_space integer, p_read bigint[], p_bound double precision, OUT sampled integer, OUT beyond integer, OUT best double precision)
 RETURNS record
 LANGUAGE plpgsql
 STABLE
AS $function$BEGIN
    CASE p_space_id WHEN NULL THEN NULL;
    WHEN 1 THEN SELECT * INTO sampled, beyond, best FROM api.space_1_sample(p, p_space, p_read, p_bound); RETURN;
    WHEN <golden_dense> THEN SELECT * INTO sampled, beyond, best FROM api.space_<golden_dense>_sample(p, p_space, p_read, p_bound); RETURN;
    ELSE PERFORM api.raise_space_dropped();
    END CASE;
END$function$
