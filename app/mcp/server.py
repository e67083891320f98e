"""``ragsearch mcp``: the search service as Model Context Protocol tools, over stdio.

The tools call the same functions as the REST routes (app/search/, app/resources/), on a
connection pool of their own, against DATABASE_URL or the
embedded server. Where REST rejects a sloppy argument, a tool reads what it can and
says so (app/mcp/lenient.py): a ``k`` out of range is clamped, an unusable weight falls
back to its default and is listed in ``weights_replaced``. Errors that remain (no
query vector, an unknown space) come back as tool errors carrying the REST body.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

import orjson
from mcp.server.mcpserver.exceptions import ToolError
from psycopg import AsyncConnection
from pydantic import Field

from app import __version__
from app.auth import Scope, check_access
from app.db.runtime import DatabaseRuntime
from app.db.supervisor import DatabaseSupervisor
from app.embedders import embedding_spaces
from app.errors import BadRequest, InternalError, Unauthorized, from_database_error
from app.ingest.prepare import parse_document
from app.ingest.store import load_spaces
from app.mcp.arguments import ToolsServer
from app.mcp.lenient import Replaced, clamped_count, unit_weight
from app.mcp.rerank import blend, rerank, stage_weights
from app.resources.documents import delete_document, prepared_document, store_prepared
from app.resources.profiles import get_profile, list_profiles
from app.search.request import parse_search_request
from app.search.service import search
from app.search.space import parse_space_search, space_search
from app.settings import Settings

K_RANGE = (1, 50)
STAGE_WEIGHTS = ("embedding", "lexical", "initial", "reranker")
INSTRUCTIONS = (
    "Weighted retrieval over the chunks stored in ragsearch. search_documents takes text "
    "(keywords and, when the server has an embedder, meaning); db.rag_search takes a "
    "query vector; search_single_space searches one embedding space; get_weight_profiles "
    "lists the named weight presets. remember stores a text as a document (split and "
    "embedded by the service) and answers its id; forget deletes a document by id."
)


class Backend:
    """The database the tools use: started (or attached to) with the server, supervised
    as the HTTP service's is (app/db/supervisor.py)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._database: DatabaseSupervisor | None = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        self._database = DatabaseSupervisor(self.settings, DatabaseRuntime(self.settings))
        try:  # a start that fails half-way stops what it had started
            await self._database.start()
            yield
        finally:
            await self._database.stop()

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[AsyncConnection]:
        if self._database is None:
            raise InternalError("the database is not started")
        async with self._database.connection() as conn:
            yield conn


def tool_error(error: Exception) -> ToolError:
    """The REST error body as the tool error's text."""
    rag = from_database_error(error)  # ours as it is; a driver's translated; else logged
    return ToolError(orjson.dumps(rag.body()).decode())


def _weights_given(weights: Any, notes: list[str]) -> dict[str, Any]:
    if weights is None:
        return {}
    if not isinstance(weights, dict):
        notes.append(f"weights={weights!r} is not an object; every weight kept its default")
        return {}
    unknown = sorted(set(weights) - set(STAGE_WEIGHTS))
    if unknown:
        notes.append(f"unknown weights ignored: {', '.join(map(str, unknown))} "
                     f"(known: {', '.join(STAGE_WEIGHTS)})")  # fmt: skip
    return {name: weights[name] for name in STAGE_WEIGHTS if name in weights}


def _read_weights(given: dict[str, Any]) -> tuple[dict[str, float], list[Replaced]]:
    chosen: dict[str, float] = {}
    replaced: list[Replaced] = []
    for name, value in given.items():
        weight = unit_weight(name, value)
        if isinstance(weight, Replaced):
            replaced.append(weight)
        else:
            chosen[name] = weight
    return chosen, replaced


async def _reranked(
    settings: Settings, text: str, rows: list[dict[str, Any]], weights: tuple[float, float]
) -> list[dict[str, Any]]:
    scores = await rerank(settings, text, [row["chunk"] or "" for row in rows])
    return blend(rows, scores, weights)


def _blend_body(
    text: str, chosen: dict[str, float], replaced: list[Replaced], embeds: bool
) -> dict[str, Any]:
    body: dict[str, Any] = {"query": text}
    if "embedding" in chosen:
        if not embeds:
            replaced.append(Replaced("embedding", chosen.pop("embedding"),
                                     "the server has no embedder (RAG_EMBEDDER): the query "
                                     "runs on keywords"))  # fmt: skip
        else:
            body["w_cos"] = chosen["embedding"]
    if "lexical" in chosen:
        body["w_lex"] = chosen["lexical"]
    return body


def _in_collection(body: dict[str, Any], collection: str) -> dict[str, Any]:
    return {**body, "collection": collection}


def _readable(settings: Settings, collection: Any) -> str:
    """The collection a search tool names, once RAG_MCP_KEY may read it."""
    name = _collection(collection)
    _access(settings, Scope.READ, name)
    return name


async def search_documents(
    backend: Backend, query: Any, top_k: Any, diversity_factor: Any, weights: Any,
    collection: Any = None,
) -> dict[str, Any]:  # fmt: skip
    settings = backend.settings
    collection = _readable(settings, collection)
    if not isinstance(query, str) or not query.strip():
        raise BadRequest("query (string) required: the text to search for")
    notes: list[str] = []
    k, note = clamped_count("top_k", top_k, settings.default_k, *K_RANGE)
    notes += [note] if note else []
    chosen, replaced = _read_weights(_weights_given(weights, notes))
    async with backend.connection() as conn:
        embeds = bool(embedding_spaces(settings, (await load_spaces(conn)).values()))
    body = _blend_body(query.strip(), chosen, replaced, embeds)
    diversity = unit_weight("diversity_factor", diversity_factor or 0.0)
    if isinstance(diversity, Replaced):
        notes.append(f"diversity_factor={diversity_factor!r} is {diversity.reason}; used 0")
    elif diversity > 0:
        body["diversity_factor"] = diversity
    stages = stage_weights(chosen, settings, notes)
    body["k"] = max(k, settings.reranker_candidates) if stages[1] > 0 else k
    async with backend.connection() as conn:
        response = await search(conn, parse_search_request(_in_collection(body, collection)),
                                settings)  # fmt: skip
    if stages[1] > 0:
        response["rows"] = (await _reranked(settings, body["query"], response["rows"], stages))[:k]
    response["k"] = k
    used = response["weights"]
    applied = {"embedding": used["w_cos"], "lexical": used.get("w_lex", 0.0),
               "initial": stages[0], "reranker": stages[1]}  # fmt: skip
    response["weights_applied"] = applied
    response["weights_replaced"] = [r.as_dict(applied[r.name]) for r in replaced]
    response["reranker"] = {
        "configured": bool(settings.reranker_url),
        "used": stages[1] > 0,
        **({} if settings.reranker_url else {"note": "no reranker configured"}),
    }
    response["notes"] = notes
    return response


async def rag_search(
    backend: Backend, embedding: Any, k: Any, w_rec: Any, w_sig: Any, collection: Any = None
) -> dict[str, Any]:
    collection = _readable(backend.settings, collection)
    notes: list[str] = []
    count, note = clamped_count("k", k, backend.settings.default_k, *K_RANGE)
    notes += [note] if note else []
    given = {name: value for name, value in (("w_rec", w_rec), ("w_sig", w_sig))
             if value is not None}  # fmt: skip
    chosen, replaced = _read_weights(given)
    body = _in_collection({"embedding": embedding, "k": count, **chosen}, collection)
    async with backend.connection() as conn:
        response = await search(conn, parse_search_request(body), backend.settings)
    if notes or replaced:
        used = response["weights"]
        response.update(notes=notes, weights_replaced=[r.as_dict(used[r.name]) for r in replaced])
    return response


async def single_space(
    backend: Backend, space: Any, query_embedding: Any, top_k: Any, min_similarity: Any,
    collection: Any = None,
) -> dict[str, Any]:  # fmt: skip
    collection = _readable(backend.settings, collection)
    if not isinstance(space, str) or not space:
        raise BadRequest("space (string) required: a registered space name")
    count, note = clamped_count("top_k", top_k, 10, *K_RANGE)
    body = _in_collection({"query_embedding": query_embedding, "top_k": count}, collection)
    if min_similarity is not None:
        body["min_similarity"] = min_similarity
    async with backend.connection() as conn:
        response = await space_search(conn, space, parse_space_search(body), backend.settings)
    if note:
        response["notes"] = [note]
    return response


def _access(settings: Settings, scope: Scope, collection: str | None) -> None:
    """What REST needs of a key: with keys configured, every tool acts with RAG_MCP_KEY,
    which must be one that may read (or write) this collection (403 or 401 otherwise,
    saying what to set). Open mode (no keys) allows all."""
    key = settings.mcp_key.get_secret_value() if settings.mcp_key else None
    try:
        access = check_access(settings, f"Bearer {key}" if key else None, scope)
    except Unauthorized as error:
        which = "is not one of its keys" if key else "is not set"
        what = f"{scope.value} collection {collection!r}" if collection else "search"
        error.extra["hint"] = (f"the service has API keys and RAG_MCP_KEY {which}: set it to "
                               f"a key that may {what}")  # fmt: skip
        raise
    if collection is not None:
        access.collection(collection)


def _collection(collection: Any) -> str:
    """The collection a tool names (``default`` when none), checked before the key reads it."""
    if collection in (None, ""):
        return "default"
    if not isinstance(collection, str):
        raise BadRequest("collection must be a collection name", field="collection")
    return collection


async def remember(
    backend: Backend, text: Any, title: Any, tags: Any, metadata: Any, collection: Any,
    doc_id: Any,
) -> dict[str, Any]:  # fmt: skip
    settings = backend.settings
    body: dict[str, Any] = {
        "doc_id": doc_id if doc_id not in (None, "") else f"memory-{uuid.uuid4().hex}",
        "collection": collection if collection not in (None, "") else "default",
        "text": text, "title": title or "", "tags": tags or [], "metadata": metadata or {},
    }  # fmt: skip
    document = parse_document(body)
    _access(settings, Scope.WRITE, document.collection)
    prepared, spaces = await prepared_document(backend.connection, document, settings)
    stored = await store_prepared(backend.connection, prepared, spaces, settings)
    return {"ok": True, "doc_id": document.doc_id, "collection": document.collection,
            "chunks": stored["chunks"], "vectors": stored["vectors"]}  # fmt: skip


async def forget(backend: Backend, doc_id: Any, collection: Any) -> dict[str, Any]:
    if not isinstance(doc_id, str) or not doc_id:
        raise BadRequest("doc_id (string) required: the id remember answered", field="doc_id")
    name = _collection(collection)
    _access(backend.settings, Scope.WRITE, name)
    async with backend.connection() as conn:
        deleted = await delete_document(conn, name, doc_id)
    return {**deleted, "collection": name}


async def weight_profiles(backend: Backend, name: Any) -> dict[str, Any]:
    _access(backend.settings, Scope.READ, None)  # profiles are every collection's
    async with backend.connection() as conn:
        if name:
            return {"ok": True, "profile": (await get_profile(conn, str(name))).as_dict()}
        return {"ok": True, "profiles": [p.as_dict() for p in await list_profiles(conn)]}


def _number(description: str) -> Any:
    """A number argument as the schema shows it; read leniently by the tool itself."""
    return Field(description=description, json_schema_extra={"type": "number"})


VectorArg = Annotated[
    Any,
    Field(
        description="The query vector, as the space's kind takes it: an array of numbers "
        "with the space's dimensions (dense; or base64 of little-endian float32), "
        '{"indices": [...], "values": [...]} (sparse), or an array of arrays of numbers, one '
        "per token (multivector).",
        json_schema_extra={"type": ["array", "string", "object"]},
    ),
]
KArg = Annotated[Any, _number("How many rows, 1..50 (default 5; clamped into range).")]
TopKArg = Annotated[Any, _number("How many results, 1..50 (default 10; clamped into range).")]
RecencyArg = Annotated[Any, _number("Recency weight in [0,1] (default 0.1).")]
SignalArg = Annotated[Any, _number("Signal (usefulness) weight in [0,1] (default 0.1).")]
DiversityArg = Annotated[
    Any,
    _number(
        "0..1: 0 ranks by score alone (default); higher values prefer rows unlike the ones "
        "already chosen (maximal marginal relevance)."
    ),
]
MinSimilarityArg = Annotated[Any, _number("Drop results whose cosine similarity is lower (0..1).")]
CollectionArg = Annotated[
    str | None,
    Field(description="The collection to search (default: default)."),
]
StageWeightsArg = Annotated[
    Any,
    Field(
        description="Optional stage weights, each in [0,1]: embedding (semantic similarity), "
        "lexical (keywords), initial (first-stage score) and reranker (cross-encoder score, "
        "when a reranker is configured).",
        json_schema_extra={
            "type": "object",
            "properties": {
                name: {"type": "number", "minimum": 0, "maximum": 1} for name in STAGE_WEIGHTS
            },
        },
    ),
]


def build_server(settings: Settings) -> ToolsServer:
    backend = Backend(settings)
    server = ToolsServer(
        name="ragsearch", version=__version__, instructions=INSTRUCTIONS,
        lifespan=lambda _server: backend.running(),
    )  # fmt: skip

    async def guarded(call: Any) -> dict[str, Any]:
        try:
            result: dict[str, Any] = await call
            return result
        except Exception as error:
            raise tool_error(error) from error

    @server.tool(
        name="db.rag_search",
        description="Top-k chunks for a query vector, ranked by "
        "w_cos·cosine similarity + w_rec·recency + w_sig·signal (w_cos = 1 - w_rec - w_sig). "
        "Returns {ok, k, weights, rows}; each row has chunk_id, doc_id, src, chunk, score.",
    )
    async def db_rag_search(
        embedding: VectorArg,
        k: KArg = None,
        w_rec: RecencyArg = None,
        w_sig: SignalArg = None,
        collection: CollectionArg = None,
    ) -> dict[str, Any]:
        return await guarded(rag_search(backend, embedding, k, w_rec, w_sig, collection))

    @server.tool(
        name="search_documents",
        description="Search the stored chunks with text: keyword relevance (BM25) blended "
        "with semantic similarity when the server embeds queries, plus recency and signal. "
        "Weights are optional; an invalid one falls back to its default and is listed in "
        "weights_replaced. Returns rows (best first), weights_applied and notes.",
    )
    async def search_documents_tool(
        query: Annotated[str, Field(description="What to search for, in words or identifiers.")],
        top_k: KArg = None,
        diversity_factor: DiversityArg = None,
        weights: StageWeightsArg = None,
        collection: CollectionArg = None,
    ) -> dict[str, Any]:
        return await guarded(
            search_documents(backend, query, top_k, diversity_factor, weights, collection)
        )

    @server.tool(
        name="get_weight_profiles",
        description="The named weight profiles (w_cos, w_rec, w_sig, w_lex, space_weights, "
        "recency, version); pass name for one. Use a profile's name as 'profile' in searches.",
    )
    async def get_weight_profiles(
        name: Annotated[str | None, Field(description="One profile's name (optional).")] = None,
    ) -> dict[str, Any]:
        return await guarded(weight_profiles(backend, name))

    @server.tool(
        name="remember",
        description="Store a text so that later searches find it: the service splits it, "
        "embeds it in every space that has an embedder and indexes its keywords. Returns "
        "{ok, doc_id, collection, chunks}; keep doc_id to forget it. Sending the same doc_id "
        "again replaces the text.",
    )
    async def remember_tool(
        text: Annotated[str, Field(description="What to remember (plain text or Markdown).")],
        title: Annotated[str | None, Field(description="A title for it (optional).")] = None,
        tags: Annotated[
            list[str] | None, Field(description="Tags to filter searches by (optional).")
        ] = None,
        metadata: Annotated[
            dict[str, Any] | None,
            Field(description="Metadata (a JSON object) to filter searches by (optional)."),
        ] = None,
        collection: Annotated[
            str | None, Field(description="The collection to store it in (default: default).")
        ] = None,
        doc_id: Annotated[
            str | None,
            Field(description="Its id (default: a new one); an existing id is replaced."),
        ] = None,
    ) -> dict[str, Any]:
        return await guarded(remember(backend, text, title, tags, metadata, collection, doc_id))

    @server.tool(
        name="forget",
        description="Delete a document (what remember stored, or any other) by its doc_id, "
        "with its chunks and vectors. Returns {ok, doc_id, deleted_chunks}.",
    )
    async def forget_tool(
        doc_id: Annotated[str, Field(description="The doc_id remember answered.")],
        collection: Annotated[
            str | None, Field(description="Its collection (default: default).")
        ] = None,
    ) -> dict[str, Any]:
        return await guarded(forget(backend, doc_id, collection))

    @server.tool(
        name="search_single_space",
        description="Nearest chunks of one embedding space by cosine similarity. Returns "
        "results with their similarity.",
    )
    async def search_single_space(
        space: Annotated[str, Field(description="A registered space name, e.g. 'default'.")],
        query_embedding: VectorArg,
        top_k: TopKArg = None,
        min_similarity: MinSimilarityArg = None,
        collection: CollectionArg = None,
    ) -> dict[str, Any]:
        return await guarded(
            single_space(backend, space, query_embedding, top_k, min_similarity, collection)
        )

    return server
