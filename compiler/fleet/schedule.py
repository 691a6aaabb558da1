"""Where the files are replayed: on a Dask cluster (`dask.distributed`), or in this
process when Dask is not installed or not wanted.  Both call the same `replay_file`, so
they give the same results; only the order results arrive in differs.

On Dask: the bundles go once to each worker (scattered with broadcast, and loaded once
per worker process), one task per file, results streamed back as they finish.  A worker
that dies has its tasks run again elsewhere by the scheduler; a task that keeps killing
its workers ends as that file's error, and the other files go on.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from typing import Any

from rulec.compiler.fleet.replay_file import (
    FileResult,
    ReplayOptions,
    replay_file,
    replay_file_task,
)
from rulec.compiler.fleet.telemetry import RunFile
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


def task_key(index: int, run_file: RunFile) -> str:
    """A readable, unique task name: the dashboard and logs show which file it is."""
    return f"rulec-fleet-{index:06d}-" + re.sub(r"[^A-Za-z0-9_.-]+", "_", run_file.name)


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

    with ExitStack() as stack:
        if client is None:
            client = stack.enter_context(_connect(Client, LocalCluster, scheduler, workers))
        if on_start is not None:
            n = len(client.scheduler_info().get("workers", {}))
            where = scheduler or "a local cluster"
            on_start(f"{n} worker(s) on {where}")
        payloads = client.scatter((new, old), broadcast=True, hash=False)
        futures = {client.submit(replay_file_task, payloads, run_file, options,
                                 key=task_key(i, run_file), pure=False): i
                   for i, run_file in enumerate(files)}
        for future in as_completed(futures):
            index = futures.pop(future)
            yield index, _result(future, files[index])
            future.release()


def _connect(client_class: Any, cluster_class: Any, scheduler: str | None,
             workers: int | None) -> Any:
    if scheduler is not None:
        try:
            return client_class(scheduler, timeout="20s")
        except (OSError, TimeoutError) as exc:
            raise FleetError(f"cannot reach the scheduler {scheduler}: {exc}") from None
    n = workers or os.cpu_count() or 1
    cluster = cluster_class(n_workers=n, threads_per_worker=1, processes=True,
                            host="127.0.0.1", dashboard_address=None)
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


def _result(future: Any, run_file: RunFile) -> FileResult:
    """The task's result; a task that failed on the cluster is that file's error."""
    try:
        result: FileResult = future.result()
    except Exception as exc:  # noqa: BLE001 - KilledWorker, a lost worker, a bug: one file
        reason = " ".join(str(exc).split()) or type(exc).__name__
        return FileResult(str(run_file.path), error=f"{run_file.path}: not replayed on the "
                          f"cluster: {type(exc).__name__}: {reason}")
    return result
