"""The compose file's citus profile: a coordinator and two workers from an image of Citus
with pgvector, joined, and a service pointed at the coordinator (``make compose-check``
validates the file with every profile)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]


def citus_services() -> dict[str, dict]:
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    return {name: s for name, s in services.items() if "citus" in s.get("profiles", [])}


def test_the_nodes_run_citus_with_pgvector():
    dockerfile = (ROOT / "deploy" / "citus" / "Dockerfile").read_text()
    assert "ARG CITUS_IMAGE=citusdata/citus:14" in dockerfile
    assert "postgresql-${PG_MAJOR}-pgvector" in dockerfile
    nodes = {name: s for name, s in citus_services().items() if name.startswith("citus-")}
    assert set(nodes) == {"citus-coordinator", "citus-worker-1", "citus-worker-2", "citus-join"}
    for name in ("citus-coordinator", "citus-worker-1", "citus-worker-2"):
        assert nodes[name]["build"] == "deploy/citus"
        assert "wal_level=logical" in nodes[name]["command"]
        assert nodes[name]["environment"]["POSTGRES_DB"] == "ragsearch"
    assert len({n["volumes"][0] for n in nodes.values() if "volumes" in n}) == 3


def test_the_workers_are_joined_before_the_service_starts():
    services = citus_services()
    join = "\n".join(services["citus-join"]["command"])
    assert "citus_set_coordinator_host('citus-coordinator', 5432)" in join
    for worker in ("citus-worker-1", "citus-worker-2"):
        assert f"citus_add_node('{worker}', 5432)" in join
        assert services["citus-join"]["depends_on"][worker]["condition"] == "service_healthy"
    service = services["ragsearch-citus"]
    assert service["depends_on"]["citus-join"]["condition"] == "service_completed_successfully"
    assert "@citus-coordinator:5432/ragsearch" in service["environment"]["DATABASE_URL"]
    assert service["environment"]["RAG_CITUS"] == "on"
