"""Two checkouts' services side by side: the same requests against each, alternated.

    python bench/http_ab.py /path/to/before /path/to/after --rounds 5 --connections 20

Each checkout (a clone or worktree with its own .venv) serves the search_bench corpus
database (bench/data, built if missing) on a port of its own (bench/common.py's
``service``), one worker each, the schema left as it is (RAG_MIGRATE_ON_START=false:
both must read the same one). Round after round, each service in turn (the order
flipped every round) answers wrk runs of the plain-ANN endpoint and of the weighted
search (0.5/0.3/0.2) at one concurrency; bench/http_load.py measures requests/s and the
CPU per request of the service and of the database. The table gives each checkout's
median over the rounds, and every round's requests/s, so that the machine's noise shows
beside the difference.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import corpus_database, print_table, server, service
from bench.corpus import CorpusSpec, query_vectors
from bench.http_load import PLAIN, WEIGHTED, CpuMeter, request_bodies, server_pid, wrk

MIX = (0.5, 0.3, 0.2)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("checkouts", nargs=2, type=Path)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=8)
    args = parser.parse_args()
    spec = CorpusSpec(args.n, args.dims)
    bodies = request_bodies(query_vectors(spec, 200), MIX)
    with server() as admin:
        url = corpus_database(admin, spec)
        with (
            service(url, checkout=args.checkouts[0], RAG_MIGRATE_ON_START="false") as first,
            service(url, checkout=args.checkouts[1], RAG_MIGRATE_ON_START="false") as second,
        ):
            runs = compare([first, second], url, bodies, args)
    report(args.checkouts, runs)


def compare(bases: list[str], url: str, bodies: dict[str, list[bytes]],
            args: argparse.Namespace) -> list[dict]:  # fmt: skip
    meters = [CpuMeter(server_pid(base), url) for base in bases]
    for base in bases:  # warm-up
        for path, posted in bodies.items():
            wrk(base, path, posted, 5, 2)
    runs: list[dict] = [{PLAIN: [], WEIGHTED: []} for _ in bases]
    for number in range(args.rounds):
        order = range(len(bases)) if number % 2 == 0 else reversed(range(len(bases)))
        for i in order:
            for path, posted in bodies.items():
                runs[i][path].append(meters[i].wrk(bases[i], path, posted,
                                                   args.connections, args.seconds))  # fmt: skip
        print(f"round {number + 1} of {args.rounds} done", flush=True)
    return runs


def report(checkouts: list[Path], runs: list[dict]) -> None:
    rows = []
    for checkout, found in zip(checkouts, runs, strict=True):
        row: list[object] = [str(checkout)]
        for path in (PLAIN, WEIGHTED):
            row += [statistics.median(r["rps"] for r in found[path]),
                    statistics.median(r["service_cpu"] for r in found[path]),
                    " ".join(f"{r['rps']:.0f}" for r in found[path])]  # fmt: skip
        rows.append(row)
    print_table(["checkout", "ANN req/s", "ANN service ms/req", "ANN runs",
                 "weighted req/s", "weighted service ms/req", "weighted runs"], rows)  # fmt: skip


if __name__ == "__main__":
    main()
