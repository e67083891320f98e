-- A chunk's foreign key is checked row by row with
--   SELECT 1 FROM ONLY rag.documents x WHERE id = $1 AND collection_id = $2 FOR KEY SHARE
-- planned once per connection. Planned before the table has statistics (a first bulk
-- load), the index on collection_id alone could look cheaper than the primary key (id,
-- collection_id): deduplicated, it stays one page, a level shallower than the key's; the
-- planner took it, and each chunk's check read every document of its collection (a load
-- of 100k chunks in 10k documents slowed batch after batch until autovacuum's ANALYZE had
-- the check planned again; without autovacuum, 1.8 s a batch of 5,000 chunks became 8 s).
-- On (collection_id, id) either index finds the one row, and the index still serves a
-- collection's documents, now in id order. Its keys are unique, so it is some four times
-- the deduplicated one's size: about 28 bytes a document.
-- Built before the old one is dropped, so that the table is locked against reads only
-- for the drop.
CREATE INDEX documents_by_collection_idx ON rag.documents (collection_id, id);
DROP INDEX rag.documents_collection_idx;
