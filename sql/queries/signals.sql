-- name: unknown_chunks
-- (the collection by id, or a split one's parts: Citus sends a statement to the nodes
-- holding them when it filters by values it knows before running it)
SELECT id FROM unnest(%(chunk_ids)s::text[]) AS u(id)
WHERE NOT EXISTS (SELECT 1 FROM rag.chunks c
                  WHERE c.chunk_id = u.id
                    AND c.collection_id = ANY(%(collections)s::integer[]));

-- name: update_signals
UPDATE rag.chunks AS c
SET volume = least(%(max_volume)s, greatest(0, coalesce(u.volume, c.volume)
                                                 + coalesce(u.add_volume, 0))),
    confidence = coalesce(u.confidence, c.confidence),
    signal_given = CASE WHEN u.set_signal THEN u.signal ELSE c.signal_given END
FROM jsonb_to_recordset(%(updates)s::jsonb)
     AS u(chunk_id text, volume real, confidence real, add_volume real,
          set_signal boolean, signal real)
WHERE c.chunk_id = u.chunk_id AND c.collection_id = ANY(%(collections)s::integer[])
RETURNING c.chunk_id, c.volume, c.confidence, c.scale, c.signal, c.signal_given IS NOT NULL;
