-- A chunk's foreign key is checked row by row with
--   SELECT 1 FROM ONLY rag.documents x WHERE id = $1 AND collection_id = $2 FOR KEY SHARE
-- planned once per connection. Planned before the table has statistics (a first bulk
-- load), the primary key (id, collection_id) and the index on collection_id alone cost
-- the same, and the planner took the second: each chunk's check then read every document
-- of its collection (a load of 100k chunks in 10k documents slowed batch after batch
-- until autovacuum's ANALYZE had the check planned again; without autovacuum, 1.8 s a
-- batch of 5,000 chunks became 8 s). On (collection_id, id) either index finds the one
-- row, and the index still serves a collection's documents, now in id order.
DROP INDEX rag.documents_collection_idx;
CREATE INDEX documents_collection_idx ON rag.documents (collection_id, id);
