-- name: set_coordinator
-- The coordinator's own address, as the workers reach it.
SELECT citus_set_coordinator_host(%s, %s);

-- name: add_worker
-- Joins a worker (or returns its id when it has joined already).
SELECT citus_add_node(%s, %s);

-- name: placements
SELECT n.nodeport, count(p.placementid)
FROM pg_dist_node n LEFT JOIN pg_dist_placement p ON p.groupid = n.groupid
GROUP BY n.nodeport;
