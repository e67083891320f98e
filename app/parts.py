"""Split collections (sql/schema/0016_split_collections.sql): a collection stored as
parts, each a collection of its own, on a worker of its own on Citus. A document lives in
one part, chosen from its doc_id alone, so that sending it again replaces it where it is;
a search asks every part for its best rows and merges them (app/search/parts.py)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from psycopg import AsyncConnection

from app.db.sqlfiles import queries
from app.errors import unknown_collection

MAX_PARTS = 64


@dataclass(frozen=True)
class CollectionTarget:
    """A collection as writes and searches address it: its id and its parts' ids (none
    when it is whole)."""

    id: int
    parts: tuple[int, ...] = ()

    @property
    def split(self) -> bool:
        return bool(self.parts)

    @property
    def ids(self) -> tuple[int, ...]:
        """The collections that store its chunks: its parts, or itself."""
        return self.parts or (self.id,)

    def holding(self, doc_id: str) -> int:
        """The collection (part) that stores a document."""
        if not self.parts:
            return self.id
        digest = hashlib.blake2b(doc_id.encode(), digest_size=8).digest()
        return self.parts[int.from_bytes(digest, "big") % len(self.parts)]


async def find_collection(conn: AsyncConnection, name: str, lock: bool = False) -> CollectionTarget:
    """The collection's id and parts (404 if none); with ``lock``, writers of it queue
    behind this transaction (see lock_collection in sql/queries/collections.sql)."""
    q = queries("collections")
    cursor = await conn.execute(q.lock_collection if lock else q.collection_id, (name,))
    row = await cursor.fetchone()
    if row is None:
        raise unknown_collection(name)
    return CollectionTarget(int(row[0]), tuple(row[1]))
