"""In-process peers on the benchmark's own vectors: what a user would pick instead.

Two engines, installed from PyPI (``pip install -e '.[bench]'``) and run in this process
on the same vectors, the same per-row created_at and signal, read once from the
benchmark's database (``load_corpus``):

  hnsw_mem   FAISS ``IndexHNSWFlat`` (inner product over the unit vectors, float32 in
             memory), with the space's own ``m`` and ``ef_construction`` and the run's
             ``ef_search``: the raw in-memory HNSW floor;
  lancedb    LanceDB (embedded, a table in a local folder) with the index its docs
             recommend for the best recall/latency trade-off, IVF_HNSW_SQ (cosine, one
             partition as they recommend for HNSW, the same ``m`` / ``ef_construction``,
             ``ef`` = the run's ``ef_search``): its plain top-10 by vector;
  lancedb_rescored_N  the weighted top-10 done LanceDB's way: its top-N by vector
             (N = 100, 1000; ``ef`` = max(ef_search, N), distances refined from the full
             vectors), re-scored with recency and signal by ``weighted_scores`` (the
             ranking rule's formula), best 10.

``weighted_scores`` is the rule of ``api.score`` (sql/functions/score.sql) with the
default recency, ``inverse`` at a scale of one day; tests/bench/test_peers.py holds it to
``api.rag_topk_weighted``'s exact scan on a real database.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from tqdm import tqdm

K = 10
RESCORE_DEPTHS = (100, 1000)
Weights = tuple[float, float, float]
# (weights, query vector, now as epoch seconds) -> chunk ids, best first
PeerSearch = Callable[[Weights, np.ndarray, float], list[str]]

SPACE_SQL = """
SELECT api.vector_table(s.id), s.hnsw_m, s.hnsw_ef_construction,
       pg_relation_size(to_regclass(format('rag.%%I',
           api.hnsw_index(s.id, api.collection_id(%(collection)s)))))
FROM rag.spaces s WHERE s.name = %(space)s
"""
CORPUS_SQL = """
SELECT c.chunk_id, v.embedding, date_part('epoch', c.created_at) AS created, c.signal
FROM rag.chunks c JOIN rag.{table} v ON v.chunk_pk = c.id AND v.collection_id = c.collection_id
WHERE c.collection_id = api.collection_id(%(collection)s)
ORDER BY c.id
"""


@dataclass(frozen=True)
class Corpus:
    """One collection's rows in one space, as arrays in the same order."""

    chunk_ids: np.ndarray  # str (object)
    vectors: np.ndarray  # float32 (n, dims), as stored
    created: np.ndarray  # float64, epoch seconds
    signal: np.ndarray  # float64
    hnsw_m: int  # the space's HNSW settings, as pgvector built its index
    hnsw_ef_construction: int
    pgvector_index_bytes: int  # that index's size (0: none)

    @property
    def unit_vectors(self) -> np.ndarray:
        norms = np.linalg.norm(self.vectors, axis=1, keepdims=True)
        return (self.vectors / np.where(norms == 0, 1, norms)).astype(np.float32)


def load_corpus(
    conn: psycopg.Connection, space: str = "default", collection: str = "default"
) -> Corpus:
    """Read every chunk of ``collection`` that has a vector in ``space`` (with progress)."""
    register_vector(conn)
    space_row = conn.execute(SPACE_SQL, {"space": space, "collection": collection}).fetchone()
    if space_row is None:
        raise ValueError(f"no space {space!r}")
    table, m, ef_construction, index_bytes = space_row
    (total,) = conn.execute(
        "SELECT count(*) FROM rag.chunks WHERE collection_id = api.collection_id(%s)",
        (collection,),
    ).fetchone() or (0,)
    ids: list[str] = []
    vectors: list[np.ndarray] = []
    created: list[float] = []
    signal: list[float] = []
    with (
        conn.transaction(),
        conn.cursor("peers_corpus", binary=True) as cursor,
        tqdm(total=total, desc="read vectors", unit="chunk") as bar,
    ):
        cursor.itersize = 5000
        cursor.execute(CORPUS_SQL.format(table=table), {"collection": collection})
        for chunk_id, embedding, at, sig in cursor:
            ids.append(chunk_id)
            vectors.append(embedding.to_numpy())  # the binary loader: a Vector
            created.append(at)
            signal.append(sig)
            bar.update()
    return Corpus(
        np.asarray(ids, dtype=object),
        np.asarray(vectors, dtype=np.float32).reshape(len(ids), -1),
        np.asarray(created, dtype=np.float64),
        np.asarray(signal, dtype=np.float64),
        m,
        ef_construction,
        index_bytes or 0,
    )


def weighted_scores(
    cosine: np.ndarray, created: np.ndarray, signal: np.ndarray, weights: Weights, now: float
) -> np.ndarray:
    """The ranking rule (api.score) for one space: w_cos * cosine + w_rec * recency +
    w_sig * signal, recency = 1 / (1 + age in days), the age never negative."""
    w_cos, w_rec, w_sig = weights
    days = np.maximum(0.0, (now - created) / 86400.0)
    return w_cos * cosine + w_rec * (1.0 / (1.0 + days)) + w_sig * signal


def best(chunk_ids: np.ndarray, scores: np.ndarray, k: int = K) -> list[str]:
    """The k best, ties broken by chunk_id (as the scan orders them)."""
    if len(scores) > k:
        kth = np.partition(scores, len(scores) - k)[len(scores) - k]
        keep = np.flatnonzero(scores >= kth)  # the k best and any tie with the k-th
    else:
        keep = np.arange(len(scores))
    ranked = sorted(keep.tolist(), key=lambda i: (-scores[i], chunk_ids[i]))
    return [str(chunk_ids[i]) for i in ranked[:k]]


def exact_top(corpus: Corpus, weights: Weights, q: np.ndarray, now: float, k: int = K) -> list[str]:
    """The weighted top-k over every row, by brute force in numpy (the peers' oracle)."""
    q64 = q.astype(np.float64) / np.linalg.norm(q)
    cosine = corpus.unit_vectors.astype(np.float64) @ q64
    return best(corpus.chunk_ids, weighted_scores(cosine, corpus.created, corpus.signal,
                                                  weights, now), k)  # fmt: skip


@dataclass
class Build:
    engine: str
    index: str
    seconds: float | None  # None: not built in this run
    index_bytes: int


@contextmanager
def ticking(desc: str) -> Iterator[None]:
    """Elapsed seconds on a progress line while a call that reports none runs."""
    done = threading.Event()
    with tqdm(desc=desc, bar_format="{desc}: {elapsed}") as bar:

        def tick() -> None:
            while not done.wait(1.0):
                bar.refresh()

        thread = threading.Thread(target=tick, daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join()


class HnswMem:
    """FAISS HNSW over the unit vectors (inner product = cosine), float32 in memory."""

    name = "hnsw_mem"

    def __init__(self, corpus: Corpus, ef_search: int, batch: int = 10_000) -> None:
        import faiss

        self.faiss = faiss
        self.chunk_ids = corpus.chunk_ids
        vectors = corpus.unit_vectors
        started = time.perf_counter()
        index = faiss.IndexHNSWFlat(vectors.shape[1], corpus.hnsw_m, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = corpus.hnsw_ef_construction
        for start in tqdm(range(0, len(vectors), batch), desc="faiss HNSW build", unit="batch"):
            index.add(vectors[start : start + batch])
        seconds = time.perf_counter() - started
        index.hnsw.efSearch = ef_search
        self.index = index
        self.build = Build(
            "FAISS " + faiss.__version__,
            f"IndexHNSWFlat m {corpus.hnsw_m}, ef_construction {corpus.hnsw_ef_construction}, "
            f"ef_search {ef_search}, float32",
            seconds,
            int(faiss.serialize_index(index).nbytes),
        )
        faiss.omp_set_num_threads(1)  # one query at a time, as each SQL query runs

    def search(self, weights: Weights, q: np.ndarray, now: float) -> list[str]:
        query = (q / np.linalg.norm(q)).astype(np.float32)[None, :]
        _, labels = self.index.search(query, K)
        return [str(self.chunk_ids[i]) for i in labels[0] if i >= 0]


class LanceDbPeer:
    """A LanceDB table in a local folder with its IVF_HNSW_SQ index (cosine)."""

    def __init__(self, corpus: Corpus, ef_search: int, folder: Path, batch: int = 10_000) -> None:
        import lancedb
        import pyarrow as pa
        from lancedb.index import HnswSq

        shutil.rmtree(folder, ignore_errors=True)
        self.ef_search = ef_search
        dims = corpus.vectors.shape[1]
        started = time.perf_counter()
        db = lancedb.connect(str(folder))
        schema = pa.schema(
            [("chunk_id", pa.string()), ("vector", pa.list_(pa.float32(), dims)),
             ("created", pa.float64()), ("signal", pa.float64())]
        )  # fmt: skip
        table = db.create_table("chunks", schema=schema)
        for start in tqdm(range(0, len(corpus.chunk_ids), batch), desc="lancedb load",
                          unit="batch"):  # fmt: skip
            part = slice(start, start + batch)
            flat = pa.array(corpus.vectors[part].reshape(-1), type=pa.float32())
            table.add(pa.table({
                "chunk_id": pa.array(corpus.chunk_ids[part].tolist(), type=pa.string()),
                "vector": pa.FixedSizeListArray.from_arrays(flat, dims),
                "created": corpus.created[part], "signal": corpus.signal[part],
            }, schema=schema))  # fmt: skip
        loaded = time.perf_counter()
        config = HnswSq(distance_type="cosine", num_partitions=1, m=corpus.hnsw_m,
                        ef_construction=corpus.hnsw_ef_construction)  # fmt: skip
        with ticking("lancedb IVF_HNSW_SQ build"):
            table.create_index("vector", config=config)
        seconds = time.perf_counter() - loaded
        self.table = table
        index_bytes = sum(
            path.stat().st_size for path in folder.rglob("*") if "_indices" in path.parts
        )
        self.build = Build(
            "LanceDB " + lancedb.__version__,
            f"IVF_HNSW_SQ cosine, 1 partition, m {corpus.hnsw_m}, ef_construction "
            f"{corpus.hnsw_ef_construction}, ef {ef_search} (top-N: max(ef, N)), 8-bit SQ "
            f"(load {loaded - started:.1f} s)",
            seconds,
            index_bytes,
        )

    def _query(self, q: np.ndarray, limit: int, columns: list[str], refine: bool) -> Any:
        query = (
            self.table.search(q, vector_column_name="vector")
            .distance_type("cosine")
            .ef(max(self.ef_search, limit))
            .limit(limit)
            .select(columns)
        )
        if refine:  # distances from the full vectors, not the 8-bit codes
            query = query.refine_factor(1)
        return query.to_arrow()

    def plain(self, weights: Weights, q: np.ndarray, now: float) -> list[str]:
        found = self._query(q, K, ["chunk_id", "_distance"], refine=False)
        return [str(c) for c in found.column("chunk_id").to_pylist()]

    def rescored(self, depth: int) -> PeerSearch:
        def search(weights: Weights, q: np.ndarray, now: float) -> list[str]:
            found = self._query(
                q, depth, ["chunk_id", "created", "signal", "_distance"], refine=True
            )
            cosine = 1.0 - found.column("_distance").to_numpy().astype(np.float64)
            scores = weighted_scores(cosine, found.column("created").to_numpy(),
                                     found.column("signal").to_numpy(), weights, now)  # fmt: skip
            return best(np.asarray(found.column("chunk_id").to_pylist(), dtype=object), scores)

        return search


class Peers:
    """Both engines on one corpus: their searches by row name, and how they were built."""

    def __init__(self, corpus: Corpus, ef_search: int, folder: Path) -> None:
        hnsw = HnswMem(corpus, ef_search)
        lance = LanceDbPeer(corpus, ef_search, folder / "lancedb")
        pgvector = Build(
            "pgvector (the benchmark's database)",
            f"HNSW over halfvec, m {corpus.hnsw_m}, ef_construction "
            f"{corpus.hnsw_ef_construction}, ef_search {ef_search} (built at ingest)",
            None,
            corpus.pgvector_index_bytes,
        )
        self.builds = [hnsw.build, lance.build, pgvector]
        self.searches: dict[str, PeerSearch] = {
            hnsw.name: hnsw.search,
            "lancedb": lance.plain,
            **{f"lancedb_rescored_{n}": lance.rescored(n) for n in RESCORE_DEPTHS},
        }
        self.rows = len(corpus.chunk_ids)

    def print_builds(self) -> None:
        from bench.common import print_table

        print(f"\n### peers, built in this process on the same {self.rows:,} vectors")
        print_table(
            ["engine", "index", "build s", "index MB", "bytes/chunk"],
            [[b.engine, b.index, "-" if b.seconds is None else b.seconds, b.index_bytes / 2**20,
              b.index_bytes / self.rows]
             for b in self.builds],
        )  # fmt: skip


def peer_searches(
    conn: psycopg.Connection, ef_search: int, data_dir: Path
) -> dict[str, PeerSearch]:
    """The peers built on the default collection's vectors in the default space (their
    files in ``data_dir``/peers), their builds printed: their searches by row name."""
    peers = Peers(load_corpus(conn), ef_search, data_dir / "peers")
    peers.print_builds()
    return peers.searches
