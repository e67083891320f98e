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

-- name: distributed
SELECT api.distributed() AS distributed;

-- name: bound_node_connections
-- How long the coordinator waits to reach a worker, in this transaction (ms).
SET LOCAL citus.node_connection_timeout = 250;

-- name: workers
-- Each worker, and whether the coordinator reaches it now.
SELECT nodename || ':' || nodeport AS at, isactive AS active,
       citus_check_connection_to_node(nodename, nodeport) AS reachable
FROM pg_dist_node
WHERE noderole = 'primary' AND groupid <> 0
ORDER BY nodeid;

-- name: rebalance_start
-- Moves shard groups to even out the workers, in background jobs (writes go on: shards
-- are copied by logical replication); the job's id, NULL when nothing needs to move.
SELECT citus_rebalance_start() AS job;

-- name: rebalance_status
SELECT state::text AS state, coalesce(details -> 'task_state_counts', '{}') AS tasks
FROM citus_rebalance_status()
WHERE job_id = %s;

-- name: collection_workers
-- Each collection with the worker holding it (host:port).
SELECT c.name AS collection, n.nodename || ':' || n.nodeport AS worker, n.nodeport AS port
FROM rag.collections c
JOIN pg_dist_placement p
  ON p.shardid = get_shard_id_for_distribution_column('rag.documents', c.id)
JOIN pg_dist_node n ON n.groupid = p.groupid
ORDER BY c.id;
