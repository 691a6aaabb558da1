"""Fleet replay throughput: samples per second through `rulec fleet`'s replay with one
process, and on a Dask LocalCluster of 1 and 2 worker processes on this machine.

The workload is the rocket-engine example bundle and recorded runs made from its
scenario (seeded noise on every value so rules raise, clear and chatter): `--runs` files
of `--repeats` x 121 samples each.  Per configuration it prints samples/s over the
replay (the cluster is started before the clock and stopped after it), the time to
start the cluster, the bytes shipped to workers (the bundle, once per worker) and
gathered back (results), the CPU time spent per sample by the client and by the workers
(load-independent: what N cores could do), and the load average before and after,
since the machine is shared.  It also checks that every configuration wrote byte-identical events.

    python bench/fleet_replay.py                       # ~1 min: 16 runs of 6,050 samples
    python bench/fleet_replay.py --runs 64 --repeats 20 --workers 1,2
    python bench/fleet_replay.py --runs 2 --repeats 1 --long 1000,4000   # peak memory
"""

from __future__ import annotations

import argparse
import csv
import os
import pickle
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "examples" / "scenarios" / "engine_test.csv"
MANUAL = ROOT / "examples" / "manuals" / "rocket_engine"


def make_fleet(folder: Path, runs: int, repeats: int, seed: int) -> int:
    """Write the runs; return the number of samples."""
    with open(SCENARIO, newline="", encoding="utf-8") as f:
        header, *rows = list(csv.reader(f))
    span = float(rows[-1][0]) + 0.5
    rng = random.Random(seed)
    samples = 0
    for i in range(runs):
        path = folder / f"V{i % 4 + 1}" / f"run_{i:04d}.csv"
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(header)
            for k in range(repeats):
                for row in rows:
                    writer.writerow([f"{float(row[0]) + k * span:g}",
                                     *(f"{float(c) * rng.uniform(0.9, 1.1):.3f}"
                                       for c in row[1:])])
                    samples += 1
    return samples


def peak_rss_mb(command: list[str]) -> float:
    """Peak resident memory of a command run to its end, in MB."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode})")
    return usage.ru_maxrss / 1024  # kB on Linux


def long_run_memory(bundle: Path, top: Path, repeats_list: list[int]) -> None:
    """Peak memory of one long run: `rulec fleet --single-process` (chunked reading)
    against `rulec replay --json` (which reads the whole run first)."""
    rulec = str(Path(sys.executable).with_name("rulec"))
    print(f"{'one run of':>14} {'CSV MB':>8} {'fleet peak MB':>14} {'replay peak MB':>15}")
    for repeats in repeats_list:
        folder = top / f"long{repeats}"
        samples = make_fleet(folder, 1, repeats, seed=7)
        size = sum(p.stat().st_size for p in folder.rglob("*.csv")) / 1e6
        (csv_path,) = folder.rglob("*.csv")
        fleet = peak_rss_mb([rulec, "fleet", str(bundle), str(csv_path), "-o",
                             str(top / f"longout{repeats}"), "--single-process", "--quiet",
                             "--no-report"])
        replay = peak_rss_mb([rulec, "replay", str(bundle), str(csv_path), "--json"])
        print(f"{samples:>7,} samples {size:>8.1f} {fleet:>14.0f} {replay:>15.0f}")


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f}/{five:.2f}"


def run(bundle: Path, fleet: Path, out: Path, workers: int | None) -> dict[str, Any]:
    """One configuration: None = single process, else a LocalCluster of N workers."""
    from rulec.compiler.fleet.replay_fleet import replay_fleet

    before = load()
    started = time.perf_counter()
    client = cluster = None
    if workers:
        from distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None)
        client = Client(cluster)
    start_s = time.perf_counter() - started
    try:
        worker_cpu = _worker_cpu(client)
        client_cpu = time.process_time()
        report = replay_fleet(bundle, [str(fleet)], out, client=client,
                              single_process=workers is None)
        client_cpu = time.process_time() - client_cpu
        worker_cpu = _worker_cpu(client) - worker_cpu
    finally:
        if client is not None:
            client.close()
            cluster.close()
    samples = report.summary["samples"]
    return {"config": "1 process" if workers is None else f"dask, {workers} worker(s)",
            "samples": samples, "seconds": report.seconds,
            "rate": report.samples_per_s, "start_s": start_s, "load": f"{before} -> {load()}",
            "client_us": client_cpu / samples * 1e6, "worker_us": worker_cpu / samples * 1e6,
            "events": (out / "events.jsonl").read_bytes()}


def _worker_cpu(client: Any) -> float:
    """CPU seconds the workers' processes have used so far (0 without a cluster)."""
    if client is None:
        return 0.0
    return sum(client.run(time.process_time).values())


def shipped_and_gathered(bundle: Path, fleet: Path) -> tuple[int, int]:
    """Bytes of the bundle (sent once per worker) and of all results (gathered back)."""
    from rulec.compiler.fleet.replay_file import replay_file
    from rulec.compiler.fleet.runs import find_run_files
    from rulec.runtime.bundle.loader import load_bundle

    loaded = load_bundle(bundle)
    gathered = sum(len(pickle.dumps(replay_file(loaded, None, f)))
                   for f in find_run_files([str(fleet)]))
    return bundle.stat().st_size, gathered


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=50, help="scenario plays per run")
    parser.add_argument("--workers", default="1,2", help="Dask worker counts to try")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--long", default="", metavar="R1,R2",
                        help="also measure peak memory on one run of R x 121 samples each")
    args = parser.parse_args(argv)

    from rulec.compiler.pipeline import build_payload, collect_rules
    from rulec.runtime import NATIVE
    from rulec.runtime.bundle.format import encode_bundle, write_bundle_file

    with tempfile.TemporaryDirectory(prefix="fleet-bench-") as tmp:
        top = Path(tmp)
        bundle = top / "rocket.bundle"
        write_bundle_file(bundle, encode_bundle(build_payload(collect_rules([MANUAL]),
                                                              "rocket")))
        fleet = top / "telemetry"
        samples = make_fleet(fleet, args.runs, args.repeats, args.seed)
        csv_bytes = sum(p.stat().st_size for p in fleet.rglob("*.csv"))
        print(f"{args.runs} runs, {samples:,} samples, {csv_bytes / 1e6:.1f} MB of CSV; "
              f"backend {'C kernel' if NATIVE else 'numpy'}; {os.cpu_count()} core(s); "
              f"Python {sys.version.split()[0]}")
        shipped, gathered = shipped_and_gathered(bundle, fleet)
        print(f"shipped: bundle {shipped:,} B once per worker; gathered: {gathered:,} B of "
              f"results ({gathered / samples:.1f} B per sample, "
              f"{gathered / max(csv_bytes, 1) * 100:.1f} % of the CSV read on the workers)")
        configs: list[int | None] = [None, *(int(w) for w in args.workers.split(","))]
        results = [run(bundle, fleet, top / f"out{i}", w) for i, w in enumerate(configs)]
        print(f"{'configuration':<22} {'samples/s':>10} {'replay s':>9} {'start s':>8} "
              f"{'CPU us/sample: client':>22} {'workers':>8}  load 1/5 min (before -> after)")
        for r in results:
            print(f"{r['config']:<22} {r['rate']:>10,.0f} {r['seconds']:>9.2f} "
                  f"{r['start_s']:>8.2f} {r['client_us']:>22.1f} {r['worker_us']:>8.1f}  "
                  f"{r['load']}")
        same = all(r["events"] == results[0]["events"] for r in results)
        print(f"events.jsonl identical across configurations: {same}")
        if args.long:
            long_run_memory(bundle, top, [int(r) for r in args.long.split(",")])
        return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
