"""The demo: the paper's cases answered by the onboard runtime from compiled bundles, the
paper's five questions in words answered on the ground by `rulec ask`, then the engine
test profile replayed as a stream of raise/clear events.

Run by `make demo` after it has compiled examples/manuals/* into out/*.bundle.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rulec.runtime import NATIVE
from rulec.runtime.engine.engine import Engine
from rulec.runtime.engine.replay import read_samples

CASES = [
    ("rocket_engine", {"chamber_temperature": 820, "chamber_pressure": 45}),
    ("hospital", {"systolic_bp": 170}),
    ("inventory", {"stock_level": 0}),
    ("rocket_engine", {"chamber_temperature": 25, "chamber_pressure": 14.7}),
]
QUESTIONS = [
    ("rocket_engine", "The chamber temperature is 820 °C and the pressure 45 psi: "
                      "what actions are required?"),
    ("access_control", "What are the steps to log in?"),
    ("inventory", "What happens when the stock reaches zero?"),
    ("hospital", "The systolic blood pressure is 170 mmHg: can the patient be discharged?"),
    ("temperature_control", "The room temperature is 36 °C. What should be done?"),
]
SHOWN_LINES = 8  # of each answer; `rulec ask` prints them all


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bundles", type=Path, default=Path("out"))
    parser.add_argument("--scenario", type=Path,
                        default=Path(__file__).parent / "scenarios" / "engine_test.csv")
    args = parser.parse_args()
    print(f"containment kernel: {'native C (cffi)' if NATIVE else 'numpy fallback'}\n")
    for domain, state in CASES:
        engine = Engine.from_file(str(args.bundles / f"{domain}.bundle"))
        result = engine.evaluate(state)
        shown = ", ".join(f"{k}={v}" for k, v in state.items())
        print(f"{domain}: {shown}  ({result.latency_us:.0f} us)")
        if not result.rules:
            print("    no rule applies")
        for rule in result.rules:
            src = rule.source
            print(f"    [{rule.severity.upper()}] {rule.advisory}")
            print(f"        {src['file']}:{src['line']}  evidence: {rule.evidence['geometry'][0]}")
        print()

    from rulec.compiler.api import ask  # the ground side: questions in words

    print("the paper's five questions, answered from the rules alone (rulec ask):")
    for domain, question in QUESTIONS:
        said = ask(args.bundles / f"{domain}.bundle", question).answer.splitlines()
        print(f"  {domain}: {question}")
        for line in said[:SHOWN_LINES]:
            print(f"    {line}")
        if len(said) > SHOWN_LINES:
            print(f"    ... ({len(said) - SHOWN_LINES} more lines)")
        print()

    engine = Engine.from_file(str(args.bundles / "rocket_engine.bundle"))
    print(f"replaying {args.scenario.name} through the rocket_engine bundle:")
    latencies = []
    for t, sample in read_samples(args.scenario):
        started = time.perf_counter()
        events = engine.step(t, sample)
        latencies.append((time.perf_counter() - started) * 1e6)
        for event in events:
            print(f"    t={event.t:5.1f}s {event.event.upper():<5} [{event.severity}] "
                  f"{event.advisory}")
    latencies.sort()
    p50 = latencies[len(latencies) // 2]
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"\n{len(latencies)} samples, step latency p50 {p50:.0f} us, p99 {p99:.0f} us")


if __name__ == "__main__":
    main()
