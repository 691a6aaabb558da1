"""The paper's AGB-RL experiment: repair shifted thresholds from labelled feedback.

    python bench/eval/agb_rl_experiment.py [--seeds 30] [--train 400] [--test 800]

For each seed and each example domain (examples/manuals/*): compile the manual (the true
bundle), shift every threshold by a random 3-12 % up or down (the shifted bundle), draw
sensor states near the true boundaries and away from them, label them with the onboard
runtime on the true bundle, give the first part to `refine` as feedback and keep the rest
as held-out states, then score the shifted and the refined bundle on the held-out states
with the runtime.  Writes bench/eval/results/agb_rl.md, agb_rl.json and agb_rl.png.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from rulec.compiler.build.boxes import ThresholdConverter, boxes_of
from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.compiler.refine.agent import RefineConfig, refine
from rulec.compiler.refine.feedback import parse_feedback
from rulec.compiler.refine.model import BoundKey, BundleModel, load_model, rebuild_payload
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.engine.box_index import BoxIndex
from rulec.runtime.engine.engine import Engine

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
WHOLE_UNITS = ("count", "units", "points")  # readings of these parameters are whole numbers
NEAR = 0.75  # share of states drawn next to a boundary
SPREAD = 0.15  # near states lie within +-15 % of the true boundary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=30)
    ap.add_argument("--train", type=int, default=400, help="feedback states per domain")
    ap.add_argument("--test", type=int, default=800, help="held-out states per domain")
    ap.add_argument("--episodes", type=int, default=RefineConfig.episodes)
    ap.add_argument("--near", type=float, default=NEAR,
                    help="share of states drawn next to a true boundary (default %(default)s)")
    ap.add_argument("--no-ablation", action="store_true",
                    help="skip the run without re-centring (Q-learning alone)")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "agb_rl")
    args = ap.parse_args(argv)
    os.chdir(REPO)
    domains = sorted(p for p in Path("examples/manuals").iterdir() if p.is_dir())
    true_models = {d.name: load_model(encode_bundle(build_payload(collect_rules([d]), d.name)),
                                      d.name) for d in domains}
    started = time.perf_counter()
    runs = []
    for seed in range(args.seeds):
        runs.append(run_seed(seed, true_models, args))
        r = runs[-1]
        print(f"seed {seed:2d}: exact match {r['before']:.1f} -> {r['after']:.1f} "
              f"({r['after'] - r['before']:+.1f}), Q-only {r.get('after_q', float('nan')):.1f}, "
              f"refine {r['refine_s']:.1f} s", file=sys.stderr)
    report = summarise(runs, args, time.perf_counter() - started)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(report, indent=1) + "\n",
                                             encoding="utf-8")
    args.out.with_suffix(".md").write_text(render(report, args.out), encoding="utf-8")
    chart(report, args.out.with_suffix(".png"))
    print(render(report, args.out))
    return 0


def run_seed(seed: int, true_models: dict[str, BundleModel], args: argparse.Namespace
             ) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    out: dict[str, Any] = {"seed": seed, "domains": {}, "refine_s": 0.0}
    for name, true in true_models.items():
        shifted = load_model(encode_bundle(rebuild_payload(true, shift(true, rng))), name)
        states = sample_states(true, rng, args.train + args.test, args.near)
        labels = Conditions(true.payload).holding(states)
        train = feedback_csv(true, states[:args.train], labels[:args.train])
        feedback = parse_feedback(train, shifted, f"{name}-feedback.csv")
        t0 = time.perf_counter()
        learned = refine(shifted, feedback, RefineConfig(seed=seed, episodes=args.episodes))
        out["refine_s"] += time.perf_counter() - t0
        test, want = states[args.train:], labels[args.train:]
        row = {
            "bounds": len(true.bounds),
            "moved": len(learned.changes),
            "train_before": learned.accuracy_before, "train_after": learned.accuracy_after,
            "before": score(shifted.payload, test, want),
            "after": score(rebuild_payload(shifted, learned.values, {}), test, want),
            "error_before": threshold_error(true, shifted, {}),
            "error_after": threshold_error(true, shifted, learned.values),
        }
        if not args.no_ablation:
            q_only = refine(shifted, feedback, RefineConfig(seed=seed, episodes=args.episodes,
                                                            polish=False))
            row["after_q"] = score(rebuild_payload(shifted, q_only.values, {}), test, want)
            row["error_after_q"] = threshold_error(true, shifted, q_only.values)
        out["domains"][name] = row
    for key in ("before", "after", "after_q"):
        if all(key in d for d in out["domains"].values()):
            out[key] = statistics.fmean(d[key]["exact"] for d in out["domains"].values())
    return out


def shift(model: BundleModel, rng: np.random.Generator) -> dict[BoundKey, float]:
    """Every threshold moved by 3-12 %, up or down at random; ranges keep low <= high."""
    values: dict[BoundKey, float] = {}
    for b in model.bounds:
        for _ in range(50):
            factor = 1.0 + rng.choice((-1.0, 1.0)) * rng.uniform(0.03, 0.12)
            value = float(f"{b.value * factor:.6g}")
            if b.end == 0 or values[(b.rule_id, b.position, 0)] <= value:
                break
        values[b.key] = value
    return values


def _sample_range(model: BundleModel, axis: int) -> tuple[float, float]:
    p = model.payload["parameters"][axis]
    ts = [b.value for b in model.bounds if b.param == p["name"]] or [0.0, 100.0]
    lo, hi = min(ts) - max(abs(min(ts)), 1.0), max(ts) + max(abs(max(ts)), 1.0)
    if p["range"]:
        lo, hi = max(lo, p["range"][0]), min(hi, p["range"][1])
    return lo, hi


def sample_states(model: BundleModel, rng: np.random.Generator, n: int, near: float = NEAR
                  ) -> list[dict[str, float]]:
    """States with every parameter set; most put one true boundary within +-15 % and the
    rule's other parameters inside one of its boxes, so the boundary decides."""
    params = model.payload["parameters"]
    ranges = [_sample_range(model, i) for i in range(len(params))]
    conv = ThresholdConverter(dict(model.units))
    boxes = [boxes_of(c, conv) if c is not None else [] for c in model.conditions]
    states = []
    for _ in range(n):
        x = {p["name"]: float(rng.uniform(*ranges[i])) for i, p in enumerate(params)}
        if rng.random() < near and model.bounds:
            b = model.bounds[int(rng.integers(len(model.bounds)))]
            rule_boxes = [bx for bx in boxes[b.rule_index] if any(n == b.param
                                                                  for n, _ in bx.bounds)]
            if rule_boxes:
                box = rule_boxes[int(rng.integers(len(rule_boxes)))]
                for name, iv in box.bounds:
                    i = next(k for k, p in enumerate(params) if p["name"] == name)
                    lo = max(ranges[i][0], float(iv.lo) if iv.lo is not None else -math.inf)
                    hi = min(ranges[i][1], float(iv.hi) if iv.hi is not None else math.inf)
                    if lo <= hi:
                        x[name] = float(rng.uniform(lo, hi))
            scale = abs(b.value) or 1.0
            x[b.param] = b.value + float(rng.uniform(-SPREAD, SPREAD)) * scale
        for i, p in enumerate(params):
            value = min(max(x[p["name"]], ranges[i][0]), ranges[i][1])
            x[p["name"]] = float(round(value)) if p["unit"] in WHOLE_UNITS else round(value, 4)
        states.append(x)
    return states


class Conditions:
    """Which rules' conditions hold, by the runtime's geometric index (the C kernel when
    built).  Durations are not part of a condition: a rule that must hold for some time is
    labelled and scored by its condition, which is what `refine` learns from."""

    def __init__(self, payload: dict[str, Any]) -> None:
        self.bundle = load_bundle(encode_bundle(payload))
        b = self.bundle.boxes
        self.engine = Engine(self.bundle, ("geometry",))
        self.index = BoxIndex(len(self.bundle.parameters), b.start, b.axis, b.lo, b.hi, b.flags)

    def holding(self, states: list[dict[str, float]]) -> list[frozenset[str]]:
        xs = np.array([self.engine.state_vector(s)[0] for s in states])
        rules, owner = self.bundle.rules, self.bundle.boxes.rule
        return [frozenset(rules[int(owner[i])].id for i in ids)
                for ids in self.index.match_many(xs)]


def feedback_csv(model: BundleModel, states: list[dict[str, float]],
                 labels: list[frozenset[str]]) -> str:
    names = model.param_names()
    buf = io.StringIO()
    buf.write(",".join([*names, "expected"]) + "\n")
    for state, label in zip(states, labels, strict=True):
        buf.write(",".join([*(repr(state[n]) for n in names), ";".join(sorted(label))]) + "\n")
    return buf.getvalue()


def score(payload: dict[str, Any], states: list[dict[str, float]],
          want: list[frozenset[str]]) -> dict[str, float]:
    """Held-out accuracy of a bundle, with the runtime: exact match of the set of rules
    whose condition holds, per state, and correct (state, rule) decisions."""
    ids = [r["id"] for r in payload["rules"]]
    exact = decisions = 0
    for got, expected in zip(Conditions(payload).holding(states), want, strict=True):
        exact += got == expected
        decisions += sum((i in got) == (i in expected) for i in ids)
    return {"exact": 100.0 * exact / len(states),
            "decisions": 100.0 * decisions / (len(states) * len(ids))}


def threshold_error(true: BundleModel, shifted: BundleModel,
                    values: dict[BoundKey, float]) -> float:
    """Mean |threshold - true threshold|, in % of the true threshold (of 1 when it is 0)."""
    errors = []
    for t, s in zip(true.bounds, shifted.bounds, strict=True):
        v = values.get(s.key, s.value)
        errors.append(100.0 * abs(v - t.value) / (abs(t.value) or 1.0))
    return statistics.fmean(errors)


def summarise(runs: list[dict[str, Any]], args: argparse.Namespace, wall: float
              ) -> dict[str, Any]:
    from rulec.compiler import __version__
    from rulec.runtime import NATIVE

    gains = [r["after"] - r["before"] for r in runs]
    names = sorted(runs[0]["domains"])
    per_domain = {}
    for name in names:
        rows = [r["domains"][name] for r in runs]
        per_domain[name] = {
            "bounds": rows[0]["bounds"],
            "moved_mean": statistics.fmean(d["moved"] for d in rows),
            "before": statistics.fmean(d["before"]["exact"] for d in rows),
            "after": statistics.fmean(d["after"]["exact"] for d in rows),
            "decisions_before": statistics.fmean(d["before"]["decisions"] for d in rows),
            "decisions_after": statistics.fmean(d["after"]["decisions"] for d in rows),
            "improved": sum(d["after"]["exact"] > d["before"]["exact"] for d in rows),
            "worse": sum(d["after"]["exact"] < d["before"]["exact"] for d in rows),
            "error_before": statistics.fmean(d["error_before"] for d in rows),
            "error_after": statistics.fmean(d["error_after"] for d in rows),
        }
    report: dict[str, Any] = {
        "setup": {"seeds": args.seeds, "train_per_domain": args.train,
                  "test_per_domain": args.test, "episodes": args.episodes,
                  "near": args.near,
                  "domains": names, "shift": "every threshold, 3-12 % up or down",
                  "rulec": __version__, "kernel": "C (cffi)" if NATIVE else "numpy",
                  "python": platform.python_version(), "cpus": os.cpu_count()},
        "seeds_improved": sum(g > 0 for g in gains),
        "seeds_worse": sum(g < 0 for g in gains),
        "gain_mean": statistics.fmean(gains), "gain_min": min(gains),
        "gain_median": statistics.median(gains), "gain_max": max(gains),
        "before_mean": statistics.fmean(r["before"] for r in runs),
        "after_mean": statistics.fmean(r["after"] for r in runs),
        "decisions_before": statistics.fmean(
            statistics.fmean(d["before"]["decisions"] for d in r["domains"].values())
            for r in runs),
        "decisions_after": statistics.fmean(
            statistics.fmean(d["after"]["decisions"] for d in r["domains"].values())
            for r in runs),
        "error_before": statistics.fmean(d["error_before"] for d in per_domain.values()),
        "error_after": statistics.fmean(d["error_after"] for d in per_domain.values()),
        "refine_s_mean": statistics.fmean(r["refine_s"] for r in runs),
        "wall_s": wall,
        "per_domain": per_domain,
        "per_seed": [{"seed": r["seed"], "before": r["before"], "after": r["after"],
                      **({"after_q": r["after_q"]} if "after_q" in r else {}),
                      "refine_s": r["refine_s"]} for r in runs],
        "runs": runs,
    }
    if all("after_q" in r for r in runs):
        q_gains = [r["after_q"] - r["before"] for r in runs]
        report["q_only"] = {
            "seeds_improved": sum(g > 0 for g in q_gains),
            "gain_mean": statistics.fmean(q_gains), "gain_min": min(q_gains),
            "gain_median": statistics.median(q_gains), "gain_max": max(q_gains),
            "error_after": statistics.fmean(
                statistics.fmean(d["error_after_q"] for d in r["domains"].values())
                for r in runs),
        }
    return report


def render(report: dict[str, Any], out: Path) -> str:
    s = report["setup"]
    lines = [
        "# AGB-RL: repairing shifted thresholds", "",
        f"Generated by `python bench/eval/agb_rl_experiment.py --seeds {s['seeds']} --train "
        f"{s['train_per_domain']} --test {s['test_per_domain']} --near {s['near']}`: rulec "
        f"{s['rulec']}, kernel "
        f"{s['kernel']}, Python {s['python']}, {s['cpus']} CPU(s).  {len(s['domains'])} "
        f"domains ({', '.join(s['domains'])}); {s['shift']}; {s['train_per_domain']} "
        f"feedback and {s['test_per_domain']} held-out states per domain and seed "
        f"({100 * s['near']:.0f} % of them within +-15 % of a true boundary, the rule's other "
        "parameters inside its box; the rest uniform over each parameter's range), labelled "
        "with the runtime's geometric index (the C kernel) on the true bundle: the rules "
        "whose condition holds (a duration is not applied).  Accuracy = exact match of that "
        "set on held-out states (mean over domains), in %; threshold error = |threshold - "
        "true threshold| in % of the true one, averaged over every threshold.", "",
        "| | paper | rulec |", "|---|---|---|",
        f"| seeds improved | 28 of 30 | **{report['seeds_improved']} of {s['seeds']}** "
        f"({report['seeds_worse']} worse) |",
        f"| mean gain (points) | +13.4 | **{report['gain_mean']:+.1f}** |",
        f"| gain min / median / max | | {report['gain_min']:+.1f} / "
        f"{report['gain_median']:+.1f} / {report['gain_max']:+.1f} |",
        f"| held-out exact match before -> after | | {report['before_mean']:.1f} -> "
        f"{report['after_mean']:.1f} |",
        f"| held-out (state, rule) decisions before -> after | | "
        f"{report['decisions_before']:.2f} -> {report['decisions_after']:.2f} |",
        f"| mean threshold error before -> after | | {report['error_before']:.2f} % -> "
        f"{report['error_after']:.2f} % |",
        f"| refine wall time per seed ({len(s['domains'])} domains, shared machine) | | "
        f"{report['refine_s_mean']:.1f} s |", "",
    ]
    if "q_only" in report:
        q = report["q_only"]
        lines += [
            "Ablation, Q-learning alone (no re-centring between feedback values): "
            f"{q['seeds_improved']} of {s['seeds']} seeds improved, mean gain "
            f"{q['gain_mean']:+.1f} points (min {q['gain_min']:+.1f}, median "
            f"{q['gain_median']:+.1f}, max {q['gain_max']:+.1f}), mean threshold error after "
            f"{q['error_after']:.2f} %.", ""]
    lines += ["## Per domain (means over seeds)", "",
              "| domain | bounds | moved | exact match before | after | improved / worse "
              "seeds | decisions before | after | threshold error before | after |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, d in report["per_domain"].items():
        lines.append(
            f"| {name} | {d['bounds']} | {d['moved_mean']:.1f} | {d['before']:.1f} | "
            f"{d['after']:.1f} | {d['improved']} / {d['worse']} | "
            f"{d['decisions_before']:.2f} | {d['decisions_after']:.2f} | "
            f"{d['error_before']:.2f} % | {d['error_after']:.2f} % |")
    lines += ["", "## Per seed", "", "| seed | before | after | gain |"
              + (" Q alone |" if "q_only" in report else ""),
              "|---:|---:|---:|---:|" + ("---:|" if "q_only" in report else "")]
    for r in report["per_seed"]:
        extra = f" {r['after_q']:.1f} |" if "after_q" in r else ""
        lines.append(f"| {r['seed']} | {r['before']:.1f} | {r['after']:.1f} | "
                     f"{r['after'] - r['before']:+.1f} |{extra}")
    lines += ["", f"![per-seed accuracy]({out.with_suffix('.png').name})", ""]
    return "\n".join(lines)


def chart(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    seeds = report["per_seed"]
    xs = [r["seed"] for r in seeds]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    left.plot(xs, [r["before"] for r in seeds], "o-", label="shifted bundle")
    if "q_only" in report:
        left.plot(xs, [r["after_q"] for r in seeds], "^-", label="Q-learning alone")
    left.plot(xs, [r["after"] for r in seeds], "s-", label="refined (AGB-RL)")
    left.set_xlabel("seed")
    left.set_ylabel("held-out exact match (%)")
    left.set_title("Accuracy per seed")
    left.legend()
    names = list(report["per_domain"])
    before = [report["per_domain"][n]["before"] for n in names]
    after = [report["per_domain"][n]["after"] for n in names]
    pos = np.arange(len(names))
    right.bar(pos - 0.2, before, 0.4, label="shifted")
    right.bar(pos + 0.2, after, 0.4, label="refined")
    right.set_xticks(pos, [n.replace("_", "\n") for n in names], fontsize=8)
    right.set_ylabel("held-out exact match (%)")
    right.set_title("Per domain (mean over seeds)")
    right.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
