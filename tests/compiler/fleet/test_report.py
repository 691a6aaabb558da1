"""report.md says what summary.json says, and its plots are real PNG files."""

from __future__ import annotations

import json

import pytest

from rulec.compiler.fleet.replay_fleet import replay_fleet
from rulec.compiler.fleet.report import render_markdown, write_report


def test_report_page_with_plots(bundles, fleet_dir, tmp_path):
    pytest.importorskip("matplotlib", reason="plots need matplotlib (the [ground] extra)")
    out = tmp_path / "out"
    report = replay_fleet(bundles[0], [str(fleet_dir)], out, against=bundles[1],
                          single_process=True)
    written = write_report(out, report.summary)
    assert [p.name for p in written] == ["report.md", "firing_rates.png",
                                         "events_over_time.png"]
    for png in written[1:]:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 2000
    text = (out / "report.md").read_text(encoding="utf-8")
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    top = summary["nuisances"][0]
    assert f"| {top['rule']} | {top['severity']} | {top['raises']} |" in text
    assert f"{top['source']['file']}:{top['source']['line']}: " in text
    assert "![firing_rates.png](firing_rates.png)" in text
    against = summary["against"]
    assert (f"{against['added']} raise(s) added, {against['removed']} removed, "
            f"{against['shifted']} shifted") in text
    assert against["renamed"]  # the fixture rewords one statement in place
    for was, now in against["renamed"].items():
        assert f"{was} (in service) is {now}" in text
    for vehicle in summary["vehicles"]:
        assert f"| {vehicle} | " in text


def test_bad_files_are_listed(bundles, tmp_path):
    bad = tmp_path / "t" / "bad.csv"
    bad.parent.mkdir()
    bad.write_text("time,chamber_temperature\n0,x\n", encoding="utf-8")
    report = replay_fleet(bundles[0], [str(bad)], tmp_path / "out", single_process=True)
    text = render_markdown(report.summary, [])
    assert f"- {report.summary['failed'][0]['error']}" in text
    assert "No plots" in text
