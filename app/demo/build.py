"""Rebuild the demo corpus shipped in this folder (needs the ``embed`` extra).

    python -m app.demo.build

The corpus is the documentation of the Python standard library as the running
interpreter carries it (module and function docstrings, PSF License 2.0), cut into
chunks of at most ~900 characters, embedded with all-MiniLM-L6-v2. Ages (days) and
usefulness signals are spread deterministically so that recency and signal matter.
"""

from __future__ import annotations

import gzip
import importlib
import inspect
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

from app.embed.config import local_default
from app.embed.local import loaded_model, model_source

HERE = Path(__file__).resolve().parent
CORPUS_FILE = HERE / "demo_corpus.jsonl.gz"
QUERIES_FILE = HERE / "demo_queries.json"
MAX_CHARS = 900
MAX_CHUNKS_PER_MODULE = 8

MODULES = [
    "argparse",
    "array",
    "ast",
    "asyncio",
    "base64",
    "bisect",
    "calendar",
    "codecs",
    "collections",
    "concurrent.futures",
    "configparser",
    "contextlib",
    "copy",
    "csv",
    "dataclasses",
    "datetime",
    "decimal",
    "difflib",
    "enum",
    "fnmatch",
    "fractions",
    "functools",
    "gettext",
    "glob",
    "graphlib",
    "gzip",
    "hashlib",
    "heapq",
    "hmac",
    "html",
    "http.client",
    "inspect",
    "io",
    "ipaddress",
    "itertools",
    "json",
    "logging",
    "math",
    "mmap",
    "operator",
    "os",
    "pathlib",
    "pickle",
    "pprint",
    "queue",
    "random",
    "re",
    "secrets",
    "selectors",
    "shlex",
    "shutil",
    "signal",
    "socket",
    "sqlite3",
    "ssl",
    "statistics",
    "string",
    "struct",
    "subprocess",
    "tarfile",
    "tempfile",
    "textwrap",
    "threading",
    "time",
    "timeit",
    "tomllib",
    "traceback",
    "typing",
    "unicodedata",
    "unittest",
    "urllib.parse",
    "urllib.request",
    "uuid",
    "warnings",
    "weakref",
    "xml.etree.ElementTree",
    "zipfile",
    "zlib",
]

QUERIES = [
    "How do I parse JSON text into Python objects?",
    "read rows from a CSV file",
    "run a shell command and capture its output",
    "compute a SHA-256 hash of some bytes",
    "run several coroutines concurrently",
    "format a date as a string",
    "create a temporary directory that is removed afterwards",
    "search a string with a regular expression",
    "keep the smallest items with a priority queue",
    "thread-safe queue between producer and consumer",
    "compress data in memory",
    "serialize Python objects to bytes",
    "generate a secure random token for a password reset",
    "parse command line arguments",
    "write log messages to a file",
    "exact decimal arithmetic for money",
    "make an HTTP request",
    "encode a query string for a URL",
    "write unit tests with assertions",
    "measure how long a small piece of code takes",
    "copy a whole directory tree",
    "match file names with shell wildcards",
    "store data in a SQLite database",
    "define a set of named constants",
    "class with automatically generated __init__",
]


def _paragraphs(text: str) -> list[str]:
    parts = [re.sub(r"\s+", " ", p).strip() for p in re.split(r"\n\s*\n", text)]
    return [p for p in parts if len(p) > 40]


def _pack(paragraphs: list[str]) -> list[str]:
    chunks: list[str] = []
    current = ""
    for paragraph in paragraphs:
        if current and len(current) + len(paragraph) + 1 > MAX_CHARS:
            chunks.append(current)
            current = ""
        current = f"{current} {paragraph}".strip()[:MAX_CHARS]
    if current:
        chunks.append(current)
    return chunks


def _module_texts(name: str) -> list[str]:
    module = importlib.import_module(name)
    texts = _paragraphs(inspect.getdoc(module) or "")
    for attr_name in sorted(getattr(module, "__all__", dir(module))):
        if attr_name.startswith("_"):
            continue
        attr = getattr(module, attr_name, None)
        if not (inspect.isfunction(attr) or inspect.isclass(attr) or inspect.isbuiltin(attr)):
            continue
        doc = inspect.getdoc(attr)
        home = getattr(attr, "__module__", None) or name
        if doc and home.split(".")[0] == name.split(".")[0]:
            texts.extend(f"{name}.{attr_name}: {p}" for p in _paragraphs(doc)[:2])
    return _pack(texts)[:MAX_CHUNKS_PER_MODULE]


def build_documents(rng: random.Random) -> list[dict[str, Any]]:
    documents = []
    for name in MODULES:
        chunks = _module_texts(name)
        if not chunks:
            continue
        documents.append(
            {
                "doc_id": f"python-{name}",
                "src": f"https://docs.python.org/3/library/{name}.html",
                "title": f"{name} (Python {sys.version_info.major}.{sys.version_info.minor})",
                "tags": ["python", "stdlib", name.split(".")[0]],
                "metadata": {"license": "PSF-2.0"},
                "chunks": [
                    {
                        "chunk": text,
                        "age_days": round(min(3 * 365, rng.expovariate(1 / 180)), 2),
                        "volume": rng.choice([0, 1, 1, 2, 3, 5, 8, 13]),
                        "confidence": round(rng.uniform(0.3, 1.0), 2),
                        "model": "all-MiniLM-L6-v2",
                    }
                    for text in chunks
                ],
            }
        )
    return documents


def _rounded(vector: list[float]) -> list[float]:
    return [round(float(x), 4) for x in vector]


def main() -> None:
    rng = random.Random(20251109)
    documents = build_documents(rng)
    model = loaded_model(model_source(local_default()))
    texts = [f"{doc['title']}. {c['chunk']}" for doc in documents for c in doc["chunks"]]
    vectors = iter(model.encode(texts, 64, True).tolist())
    for doc in documents:
        for chunk in doc["chunks"]:
            chunk["embedding"] = _rounded(next(vectors))
    with gzip.open(CORPUS_FILE, "wt", encoding="utf-8", compresslevel=9) as out:
        for doc in documents:
            out.write(json.dumps(doc, ensure_ascii=False) + "\n")
    query_vectors = model.encode(QUERIES, 64, True).tolist()
    QUERIES_FILE.write_text(
        json.dumps(
            [
                {"text": q, "embedding": _rounded(v)}
                for q, v in zip(QUERIES, query_vectors, strict=True)
            ]
        )
    )
    print(f"{len(documents)} documents, {len(texts)} chunks -> {CORPUS_FILE.name}")


if __name__ == "__main__":
    main()
