"""Advisory locks the service and ``ragsearch ingest`` coordinate with.

* SERVICE: every running service holds it shared, on a connection of its own. A bulk
  load that finds it taken knows searches are being served, and keeps the HNSW index of
  a collection that already holds vectors (it is never dropped under a live server).
* COLLECTIONS: held by a collection's creation for its transaction, so that two creations
  count the collections one after the other (app/resources/collection_limit.py).
* BULK: a bulk load holds (BULK, collection id) while it loads a collection. A missing
  HNSW index whose collection no loader holds was left by an interrupted load: the
  service rebuilds it.
"""

from __future__ import annotations

SERVICE = 7_261_520_010
COLLECTIONS = 7_261_520_011
BULK = 726_152_002  # the first key of the two-key form (bulk key, collection id)
