"""Generated SQL compared with the reviewed text in tests/search/golden/: the statement the scan
strategy writes (api.scan_sql) for a few request shapes, the SQL generated from the
registries (decays, filters, the plan's type, the defaults), and the functions and
dispatchers generated for a space from their descriptions. A change to a generator shows
up here as a diff to read; after reading it, RAG_UPDATE_GOLDEN=1 rewrites the files."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import psycopg
import pytest
from pgvector.psycopg import register_vector

from app.db.generated import GENERATORS, generated_sql
from app.db.sqlfiles import load_order
from app.search.filters import json_filter

GOLDEN = Path(__file__).parent / "golden"
ROOT = Path(__file__).parent.parent.parent
VECTOR = [1.0] + [0.0] * 383
AS_OF = "2026-01-01T00:00:00+00:00"
SHAPES = {
    "vector_only": {"w_cos": 0.8, "w_rec": 0.1, "w_sig": 0.1},
    "keywords_only": {"w_cos": 0.0, "w_lex": 0.8, "w_rec": 0.1, "w_sig": 0.1, "query": "x"},
    "hybrid_filtered": {
        "w_cos": 0.4, "w_lex": 0.4, "w_rec": 0.1, "w_sig": 0.1, "query": "x",
        "filters": {"src_prefix": "https://docs", "tags_any": ["json"],
                    "filter": {"year": {"$gte": 2020}}},
    },
    "thresholds": {
        "w_cos": 0.8, "w_rec": 0.1, "w_sig": 0.1,
        "options": {"min_similarity": 0.3, "min_score": 0.2},
    },
}  # fmt: skip


@pytest.fixture(scope="module")
def conn(db_url):
    with psycopg.connect(db_url, autocommit=True) as connection:
        register_vector(connection)
        yield connection


def generated(conn: psycopg.Connection, shape: dict) -> str:
    (statement,) = conn.execute(
        """SELECT api.scan_sql(api.search_plan(
               p_vectors => ARRAY[%(vector)s::vector], p_spaces => ARRAY['default'],
               p_space_weights => ARRAY[1.0::float8], p_k => 10, p_w_cos => %(w_cos)s,
               p_w_rec => %(w_rec)s, p_w_sig => %(w_sig)s, p_filters => %(filters)s::jsonb,
               p_options => %(options)s::jsonb, p_w_lex => %(w_lex)s, p_query => %(query)s,
               p_collection => 'default'), 40)""",
        {
            "vector": str(VECTOR),
            "w_cos": shape["w_cos"],
            "w_rec": shape["w_rec"],
            "w_sig": shape["w_sig"],
            "w_lex": shape.get("w_lex"),
            "query": shape.get("query"),
            "filters": json.dumps(json_filter(0, shape.get("filters", {}))),
            # ages from a fixed instant: the statement carries it as a constant
            "options": json.dumps({"as_of": AS_OF, **shape.get("options", {})}),
        },
    ).fetchone()
    return re.sub(r"\s+", " ", statement).strip() + "\n"


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_the_scan_statement_is_the_reviewed_one(conn, name):
    statement = generated(conn, SHAPES[name])
    path = GOLDEN / f"scan_{name}.sql"
    if os.environ.get("RAG_UPDATE_GOLDEN") == "1":
        path.write_text(statement)
    assert path.exists(), f"no golden file {path}: run with RAG_UPDATE_GOLDEN=1, then read it"
    assert statement == path.read_text()


def test_the_statement_does_not_depend_on_the_clients_float_digits(conn):
    # Weights and the instant ages are measured from are written into the statement: a
    # client's rounding of floats must not change them (scores must equal api.score's).
    shape = {"w_cos": 1 / 3, "w_rec": 1 / 3, "w_sig": 1 / 3, "options": {"min_score": 0.1}}
    as_written = generated(conn, shape)
    conn.execute("SET extra_float_digits = -15")
    try:
        assert generated(conn, shape) == as_written
    finally:
        conn.execute("RESET extra_float_digits")
    assert "0.3333333333333333" in as_written


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_every_function_the_scan_statement_calls_is_parallel_safe(conn, name):
    # One parallel-unsafe call keeps the whole scan in one process (about 1.6x slower at
    # 1M chunks on two cores), even where the planner would inline the function.
    statement = generated(conn, SHAPES[name])
    called = set(re.findall(r"api\.(\w+)\(", statement))
    assert called, statement
    unsafe = conn.execute(
        "SELECT proname FROM pg_proc WHERE pronamespace = 'api'::regnamespace "
        "AND proname = ANY (%s) AND proparallel <> 's'",
        (sorted(called),),
    ).fetchall()
    assert unsafe == []


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("RAG_UPDATE_GOLDEN") == "1":
        path.write_text(text)
    assert path.exists(), f"no golden file {path}: run with RAG_UPDATE_GOLDEN=1, then read it"
    assert text == path.read_text()


@pytest.mark.unit
@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_the_sql_generated_from_each_registry_is_the_reviewed_one(name):
    _golden(f"generated_{name}.sql", generated_sql(name).strip() + "\n")


SPACES = {  # one space of each kind: name -> register_space's kind arguments
    "golden_dense": "'dense', 'cosine', NULL",
    "golden_sparse": "'sparse', 'inner_product', NULL",
    "golden_multivector": "'multivector', 'cosine', 16",
}


def _definition(conn, function: str) -> str:
    return conn.execute(
        "SELECT pg_get_functiondef(format('api.%%I', %s::text)::regproc)", (function,)
    ).fetchone()[0]


def test_each_kinds_functions_and_the_dispatchers_are_the_reviewed_ones(conn):
    ids = {}
    for name, kind in SPACES.items():
        (ids[name],) = conn.execute(
            f"SELECT id FROM api.register_space('{name}', 8, '', '', 8, 32, {kind})"
        ).fetchone()
    try:
        for name, space_id in ids.items():
            kind = name.split("_")[1]
            names = conn.execute(
                "SELECT b.name FROM api.space_function_bodies() b JOIN rag.spaces s "
                "ON s.kind = b.space_kind WHERE s.id = %s ORDER BY b.name",
                (space_id,),
            ).fetchall()
            texts = [_definition(conn, f"space_{space_id}_{n}") for (n,) in names]
            _golden(
                f"space_functions_{kind}.sql",
                "\n".join(texts)
                .replace(f"space_{space_id}_", "space_N_")
                .replace(f"vectors_{space_id}", "vectors_N"),
            )
        signatures = conn.execute("SELECT name FROM api.space_function_signatures()").fetchall()
        text = "\n".join(_definition(conn, f"space_{n}") for (n,) in signatures)
        for name, space_id in ids.items():
            text = text.replace(f"WHEN {space_id} THEN", f"WHEN <{name}> THEN").replace(
                f"space_{space_id}_", f"space_<{name}>_"
            )
        _golden("space_dispatch.sql", text)
    finally:
        for name in SPACES:
            conn.execute("SELECT api.drop_space(%s)", (name,))


@pytest.mark.unit
def test_every_function_file_is_applied_once_in_the_load_order():
    listed = [entry for entry in load_order() if not entry.startswith("@")]
    files = sorted(path.name for path in (ROOT / "sql" / "functions").glob("*.sql"))
    assert sorted(listed) == files
    assert len(set(listed)) == len(listed)
    assert listed[0] == "reset.sql"
    generated = [entry[1:] for entry in load_order() if entry.startswith("@")]
    assert sorted(generated) == sorted(GENERATORS)
