-- The threshold search counts the two legs of its recency/signal region (the chunks whose
-- signal alone, or whose recency alone, reaches sigma) before reading the region from
-- the GiST index, and reads deeper at once when a leg alone passes the budget
-- (api.region_legs). These two indexes make the count index-only: a few tenths of a
-- microsecond an entry, where the region read costs a few microseconds a chunk.
CREATE INDEX chunks_collection_signal_idx ON rag.chunks (collection_id, signal);
CREATE INDEX chunks_collection_created_at_idx ON rag.chunks (collection_id, created_at);
