"""``ragsearch cluster build|up|rebalance|down|status``: a local Citus cluster (local.py)."""

from __future__ import annotations

import argparse
import sys

from app.settings import Settings


def build(args: argparse.Namespace) -> int:
    from app.cluster.install import CitusUnavailable, ensure_citus_install

    try:
        install = ensure_citus_install(Settings())
    except CitusUnavailable as error:
        print(f"cluster build: {error}", file=sys.stderr)
        return 2
    print(f"PostgreSQL with Citus in {install.root}")
    return 0


def up(args: argparse.Namespace) -> int:
    from app.cluster.install import CitusUnavailable
    from app.cluster.local import LocalCluster
    from app.cluster.nodes import NodeError

    try:
        url = LocalCluster(Settings()).up(args.workers)
    except (CitusUnavailable, NodeError, ValueError) as error:
        print(f"cluster up: {error}", file=sys.stderr)
        return 2
    print(f"cluster up with {args.workers} workers; DATABASE_URL={url}")
    return 0


def down(args: argparse.Namespace) -> int:
    from app.cluster.local import LocalCluster
    from app.cluster.nodes import NodeError

    try:
        LocalCluster(Settings()).down(delete=args.delete)
    except NodeError as error:
        print(f"cluster down: {error}", file=sys.stderr)
        return 2
    print("cluster stopped" + (" and its data deleted" if args.delete else ""))
    return 0


def rebalance(args: argparse.Namespace) -> int:
    from app.cluster.local import LocalCluster

    moves = LocalCluster(Settings()).rebalance()
    print(f"rebalanced: {moves} shard moves" if moves else "balanced already: nothing moved")
    return 0


def status(args: argparse.Namespace) -> int:
    from app.cluster.local import LocalCluster

    cluster = LocalCluster(Settings())
    nodes = cluster.status()
    if not nodes:
        print(f"no cluster in {cluster.folder}")
        return 1
    print(f"{'node':<12} {'port':>5}  {'state':<8} {'shards':>6} {'collections':>11}")
    for node in nodes:
        state = "running" if node.running else "stopped"
        shards = "-" if node.shards is None else str(node.shards)
        held = "-" if node.collections is None else str(node.collections)
        print(f"{node.name:<12} {node.port:>5}  {state:<8} {shards:>6} {held:>11}")
    if nodes[0].running:
        print(f"DATABASE_URL={cluster.url}")
    return 0 if all(node.running for node in nodes) else 1


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "cluster", help="a local Citus cluster: a coordinator and workers (RAG_CLUSTER_DIR)"
    )
    actions = parser.add_subparsers(dest="action", required=True)
    p = actions.add_parser("build", help="build Citus into the cached install (once)")
    p.set_defaults(func=build)
    p = actions.add_parser("up", help="start the cluster (creating, joining and migrating it)")
    p.add_argument("--workers", type=int, default=2, help="worker nodes (default 2)")
    p.set_defaults(func=up)
    p = actions.add_parser(
        "rebalance", help="move shard groups to even out the workers (searches go on)"
    )
    p.set_defaults(func=rebalance)
    p = actions.add_parser("down", help="stop every node")
    p.add_argument("--delete", action="store_true", help="also delete the nodes' data")
    p.set_defaults(func=down)
    p = actions.add_parser("status", help="each node's port, state and shard placements")
    p.set_defaults(func=status)
