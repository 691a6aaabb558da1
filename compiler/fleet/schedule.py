"""Where the files are replayed: on a Dask cluster (`dask.distributed`), or in this
process when Dask is not installed or not wanted.  Both call the same `replay_file`, so
they give the same results; only the order results arrive in differs.

On Dask: the bundles go once to each worker (a worker plugin, `worker_plugin.py`, which
the scheduler also hands to workers that join later; loaded once per worker process),
files are partitioned into tasks by size (`partitions`), results stream back as tasks
finish.  A worker
that dies has its tasks run again elsewhere by the scheduler; a task that keeps killing
its workers ends as that file's error, and the other files go on.
"""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from typing import Any

from rulec.compiler.fleet.replay_file import (
    FileResult,
    ReplayOptions,
    replay_file,
)
from rulec.compiler.fleet.runs import RunFile
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.errors import RulecError


class FleetError(RulecError):
    """The cluster cannot be reached or used."""


def dask_available() -> str | None:
    """None when `dask.distributed` imports, else why not."""
    try:
        import distributed  # noqa: F401
    except ImportError as exc:
        return str(exc)
    return None


def replay_local(files: Sequence[RunFile], new: bytes, old: bytes | None,
                 options: ReplayOptions) -> Iterator[tuple[int, FileResult]]:
    """Each file in this process, in order: (index, result)."""
    bundle = load_bundle(new)
    previous = None if old is None else load_bundle(old)
    for index, run_file in enumerate(files):
        yield index, replay_file(bundle, previous, run_file, options)


PARTITION_BYTES = 32 << 20  # a task's telemetry at most (unless one file is larger)
TASKS_PER_WORKER = 4  # at least this many tasks per worker, for balance and retries
WORKER_WAIT_S = 60.0  # how long a cluster may take to show its first worker


def partitions(files: Sequence[RunFile], workers: int,
               most_bytes: int = PARTITION_BYTES) -> list[list[int]]:
    """Consecutive files grouped into tasks by size: small files share a task (a task
    costs the scheduler and the client milliseconds), and there are enough tasks for
    every worker to take several (a lost worker's share is small)."""
    sizes = [_size(f) for f in files]
    target = max(1, min(most_bytes, sum(sizes) // max(1, workers * TASKS_PER_WORKER)))
    groups: list[list[int]] = []
    current: list[int] = []
    held = 0
    for index, size in enumerate(sizes):
        if current and held + size > target:
            groups.append(current)
            current, held = [], 0
        current.append(index)
        held += size
    if current:
        groups.append(current)
    return groups


def _size(run_file: RunFile) -> int:
    try:
        return run_file.path.stat().st_size
    except OSError:
        return 0  # reported by the replay, with the file's name


def task_key(group: Sequence[int], files: Sequence[RunFile], replay_id: str) -> str:
    """A readable task name, unique to this replay (two replays, or one after another,
    on one scheduler never share a key): the dashboard and logs show which files it
    holds."""
    first = files[group[0]]
    more = f"-and-{len(group) - 1}" if len(group) > 1 else ""
    return (f"rulec-fleet-{replay_id}-{group[0]:06d}-"
            + re.sub(r"[^A-Za-z0-9_.-]+", "_", first.name) + more)




def replay_dask(files: Sequence[RunFile], new: bytes, old: bytes | None,
                options: ReplayOptions, *, client: Any = None, scheduler: str | None = None,
                workers: int | None = None,
                on_start: Callable[[str], None] | None = None,
                ) -> Iterator[tuple[int, FileResult]]:
    """Each file on a Dask cluster, as results finish: (index, result).

    `client`: an existing `distributed.Client`; else `scheduler` (tcp://HOST:PORT) names
    a running cluster; else a local cluster of `workers` processes (default: one per
    core) is started and stopped here.
    """
    from distributed import Client, LocalCluster, as_completed

    from rulec.compiler.fleet.worker_plugin import BundlePlugin, replay_files_task

    with ExitStack() as stack:
        if client is None:
            client = stack.enter_context(_connect(Client, LocalCluster, scheduler, workers))
        try:  # a scheduler without workers would hold the tasks for ever
            client.wait_for_workers(1, timeout=WORKER_WAIT_S)
        except TimeoutError:
            raise FleetError(f"no worker joined {scheduler or 'the cluster'} within "
                             f"{WORKER_WAIT_S:g} s") from None
        if on_start is not None:
            n = len(client.scheduler_info().get("workers", {}))
            where = scheduler or "a local cluster"
            on_start(f"{n} worker(s) on {where}")
        n_workers = len(client.scheduler_info().get("workers", {})) or 1
        replay_id = uuid.uuid4().hex[:12]
        plugin = f"rulec-fleet-{replay_id}"
        client.register_plugin(BundlePlugin(replay_id, new, old), name=plugin)
        stack.callback(client.unregister_worker_plugin, plugin)
        futures = {client.submit(replay_files_task, replay_id, [files[i] for i in group],
                                 options, key=task_key(group, files, replay_id),
                                 pure=False): group
                   for group in partitions(files, n_workers)}
        for future in as_completed(futures):
            group = futures.pop(future)
            yield from zip(group, _results(future, [files[i] for i in group]), strict=True)
            future.release()


def _connect(client_class: Any, cluster_class: Any, scheduler: str | None,
             workers: int | None) -> Any:
    if scheduler is not None:
        try:
            return client_class(scheduler, timeout="20s")
        except (OSError, TimeoutError) as exc:
            raise FleetError(f"cannot reach the scheduler {scheduler}: {exc}") from None
    n = workers or os.cpu_count() or 1
    # no dashboard; the scheduler's HTTP routes on a free local port, not on 8787 (which
    # another cluster on this machine may hold)
    cluster = cluster_class(n_workers=n, threads_per_worker=1, processes=True,
                            host="127.0.0.1", dashboard_address="127.0.0.1:0")
    return _OwnedClient(client_class(cluster), cluster)


class _OwnedClient:
    """A client with the local cluster it started: both closed on exit."""

    def __init__(self, client: Any, cluster: Any) -> None:
        self.client, self.cluster = client, cluster

    def __enter__(self) -> Any:
        return self.client

    def __exit__(self, *exc: object) -> None:
        self.client.close()
        self.cluster.close()


def _results(future: Any, run_files: list[RunFile]) -> list[FileResult]:
    """The task's results; a task that failed on the cluster is each of its files' error."""
    try:
        results: list[FileResult] = future.result()
    except Exception as exc:  # noqa: BLE001 - KilledWorker, a lost worker, a bug: its files
        reason = " ".join(str(exc).split()) or type(exc).__name__
        return [FileResult(str(f.path), error=f"{f.path}: not replayed on the cluster: "
                           f"{type(exc).__name__}: {reason}") for f in run_files]
    return results
