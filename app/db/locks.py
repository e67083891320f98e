"""Advisory locks the service and ``ragsearch ingest`` coordinate with.

* SERVICE: every running service holds it shared, on a connection of its own. A bulk
  load that finds it taken knows searches are being served, and keeps the HNSW index of
  a collection that already holds vectors (it is never dropped under a live server).
* PARTITIONS: held for its transaction by every change to the set of per-collection
  partitions: a collection's creation or drop, a space's registration (the default
  space's at start too) or drop, a re-embed's shadow made and its switch (the shadow's
  partitions become the space's). They run
  one after the other, so none misses a partition another one makes (a collection made
  while a space is registered would get no partition of that space), creations count the
  collections one at a time (app/resources/collection_limit.py), and no two of these
  changes lock every collection's partitions at once (reads of every collection, as a
  re-embed's, take no turn).
* BULK: a bulk load holds (BULK, collection id) while it loads a collection. A missing
  HNSW index whose collection no loader holds was left by an interrupted load: the
  service rebuilds it.
"""

from __future__ import annotations

SERVICE = 7_261_520_010
PARTITIONS = 7_261_520_011
BULK = 726_152_002  # the first key of the two-key form (bulk key, collection id)
