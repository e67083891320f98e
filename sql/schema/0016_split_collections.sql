-- Split collections: a collection too large for one worker is stored as parts, each a
-- collection of its own (its own partitions, counts and keyword statistics; on Citus its
-- own shard group, placed on another worker than its siblings), which the service reads
-- and writes as one (app/resources/parts.py). The collection's own row names the number
-- of parts; each part's row names the collection it belongs to and is called
-- "<collection>.<n>", a name no client can give (a dot is not allowed in theirs).
-- (Each column and constraint in a command of its own, the constraints named: Citus
-- takes no other form on a distributed schema.)
ALTER TABLE rag.collections ADD COLUMN part_of integer;
ALTER TABLE rag.collections ADD CONSTRAINT collections_part_of_fkey
    FOREIGN KEY (part_of) REFERENCES rag.collections (id);
ALTER TABLE rag.collections ADD COLUMN parts smallint NOT NULL DEFAULT 1;
ALTER TABLE rag.collections ADD CONSTRAINT collections_parts_check
    CHECK (parts BETWEEN 1 AND 64);
ALTER TABLE rag.collections DROP CONSTRAINT collections_name_check;
ALTER TABLE rag.collections ADD CONSTRAINT collections_name_check
    CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,62}(\.[0-9]{1,2})?$');
