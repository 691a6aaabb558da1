"""The bundles on every Dask worker, as a worker plugin: sent once to each worker when
a fleet replay starts, and by the scheduler to every worker that joins later (one
restarted after a crash included), so no worker's death can lose them.  (Scattered data
has no recipe: had every worker holding it died, the tasks that needed it would have
been cancelled.)  Imported only on the Dask path: it needs `distributed`."""

from __future__ import annotations

from typing import Any

from distributed import WorkerPlugin

from rulec.compiler.fleet.replay_file import (
    FileResult,
    ReplayOptions,
    replay_file_task,
)
from rulec.compiler.fleet.runs import RunFile

_PAYLOADS: dict[str, tuple[bytes, bytes | None]] = {}  # replay id -> (new, old) bytes


class BundlePlugin(WorkerPlugin):
    """Holds one replay's bundle bytes on a worker while that replay runs."""

    def __init__(self, replay_id: str, new: bytes, old: bytes | None) -> None:
        self.replay_id, self.new, self.old = replay_id, new, old

    def setup(self, worker: Any) -> None:
        _PAYLOADS[self.replay_id] = (self.new, self.old)

    def teardown(self, worker: Any) -> None:
        _PAYLOADS.pop(self.replay_id, None)


def replay_files_task(replay_id: str, run_files: list[RunFile],
                      options: ReplayOptions) -> list[FileResult]:
    """A worker's task: a partition of files, each replayed on its own, with the
    bundles this worker received for the replay."""
    payloads = _PAYLOADS[replay_id]
    return [replay_file_task(payloads, run_file, options) for run_file in run_files]
