"""`rulec plot`: the projection (bands, omitted rules, highlighting by the whole point),
the PNG it writes, and its errors.

The bundles are compiled from small manuals written here, so every expected box,
band and highlight can be checked by hand against the sentences below.
"""

from __future__ import annotations

import math
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from rulec.compiler.cli import main
from rulec.compiler.commands.plot import parse_point
from rulec.compiler.kb.plot import (
    PlotError,
    Projection,
    axis_label,
    axis_limits,
    draw,
    project,
)
from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import Bundle, load_bundle
from rulec.runtime.errors import StateError

REPO = Path(__file__).resolve().parents[3]
ROCKET = REPO / "examples" / "manuals" / "rocket_engine"

MANUAL = """\
If the tank temperature exceeds 80 °C and the line pressure is below 200 kPa, open valve A.
If the tank temperature is at least 90 °C, stop the heater.
If the line pressure exceeds 500 kPa, close valve B.
If the pump speed exceeds 3000 rpm, notify the operator.
If the line pressure is below 100 kPa and the pump speed exceeds 2000 rpm, stop the fan.
If the tank temperature stays above 95 °C for more than 10 seconds, sound the alarm.
"""
SENSORS = """\
[parameters.tank_temperature]
unit = "degC"
range = [-20, 150]
[parameters.line_pressure]
unit = "kPa"
range = [0, 1000]
[parameters.pump_speed]
unit = "rpm"
range = [0, 10000]
"""
BOX, BAND_X, BAND_Y, NEITHER, BAND_Y_MORE, TIMED = (
    "open valve A", "stop the heater", "close valve B", "notify the operator", "stop the fan",
    "sound the alarm")


@pytest.fixture(scope="module")
def plant_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("plot") / "plant"
    folder.mkdir()
    (folder / "limits.txt").write_text(MANUAL, encoding="utf-8")
    (folder / "sensors.toml").write_text(SENSORS, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def bundle(plant_dir: Path) -> Bundle:
    result = collect_rules([plant_dir])
    return load_bundle(encode_bundle(build_payload(result, "plant")))


@pytest.fixture(scope="module")
def bundle_file(plant_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("plot") / "plant.bundle"
    assert main(["compile", str(plant_dir), "-o", str(out), "-q"]) == 0
    return out


def rid(bundle: Bundle, action: str) -> str:
    (found,) = [r.id for r in bundle.rules if r.action == action]
    return found


def by_rule(p: Projection, bundle: Bundle, action: str) -> list:
    return [b for b in p.boxes if b.rule_id == rid(bundle, action)]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


# ---------------------------------------------------------------- projection


def test_boxes_bands_and_omitted_rules(bundle: Bundle):
    p = project(bundle, "tank_temperature", "line_pressure")
    (box,) = by_rule(p, bundle, BOX)
    assert box.shape == "box"
    assert (box.x.lo, box.x.hi, box.x.lo_incl) == (80.0, math.inf, False)
    assert (box.y.lo, box.y.hi, box.y.hi_incl) == (-math.inf, 200.0, False)
    (heater,) = by_rule(p, bundle, BAND_X)
    assert heater.shape == "x_band" and (heater.x.lo, heater.x.lo_incl) == (90.0, True)
    assert not heater.y.bounded
    (valve_b,) = by_rule(p, bundle, BAND_Y)
    assert valve_b.shape == "y_band" and valve_b.y.lo == 500.0 and valve_b.others == ()
    (fan,) = by_rule(p, bundle, BAND_Y_MORE)
    assert fan.shape == "y_band" and fan.others == ("pump_speed",)
    assert p.omitted == (rid(bundle, NEITHER),)
    assert set(p.drawn_rules) == {rid(bundle, a) for a in (BOX, BAND_X, BAND_Y, BAND_Y_MORE,
                                                          TIMED)}
    assert p.fired == () and not any(b.highlighted for b in p.boxes)


def test_swapping_the_axes_swaps_the_bands(bundle: Bundle):
    p = project(bundle, "line_pressure", "tank_temperature")
    assert by_rule(p, bundle, BAND_X)[0].shape == "y_band"
    assert by_rule(p, bundle, BAND_Y)[0].shape == "x_band"


def test_highlight_is_the_engines_answer_for_the_whole_point(bundle: Bundle):
    # Both states put the star inside the `line_pressure < 100` band; only the one whose
    # pump speed (a parameter not drawn) is above 2000 rpm fires the rule.
    slow = project(bundle, "tank_temperature", "line_pressure",
                   {"tank_temperature": 85, "line_pressure": 50, "pump_speed": 1000})
    assert set(slow.highlighted) == {rid(bundle, BOX)}
    assert not by_rule(slow, bundle, BAND_Y_MORE)[0].highlighted
    fast = project(bundle, "tank_temperature", "line_pressure",
                   {"tank_temperature": 85, "line_pressure": 50, "pump_speed": 2500})
    assert set(fast.highlighted) == {rid(bundle, BOX), rid(bundle, BAND_Y_MORE)}
    assert fast.point_xy == (85.0, 50.0)


def test_strict_and_inclusive_boundaries_decide_the_highlight(bundle: Bundle):
    at = project(bundle, "tank_temperature", "line_pressure",
                 {"tank_temperature": 90, "line_pressure": 150})
    # 90 is above 80, and "at least 90" includes 90 itself.
    assert set(at.highlighted) == {rid(bundle, BOX), rid(bundle, BAND_X)}
    # 80 is not above 80 (strict): nothing fires, nothing is highlighted.
    edge = project(bundle, "tank_temperature", "line_pressure",
                   {"tank_temperature": 80, "line_pressure": 150})
    assert edge.highlighted == () and edge.fired == ()


def test_a_rule_on_neither_axis_can_fire_but_is_not_drawn(bundle: Bundle):
    p = project(bundle, "tank_temperature", "line_pressure",
                {"tank_temperature": 20, "line_pressure": 300, "pump_speed": 3500})
    assert p.fired == (rid(bundle, NEITHER),)
    assert p.highlighted == ()


def test_a_duration_rule_contains_the_point_but_does_not_fire(bundle: Bundle):
    p = project(bundle, "tank_temperature", "line_pressure",
                {"tank_temperature": 96, "line_pressure": 300})
    (timed,) = by_rule(p, bundle, TIMED)
    assert timed.contains_point and not timed.highlighted
    assert p.waiting == (rid(bundle, TIMED),)
    assert set(p.highlighted) == {rid(bundle, BAND_X)}


def test_rules_filter_and_aliases(bundle: Bundle):
    keep = [rid(bundle, BOX), rid(bundle, NEITHER)]
    p = project(bundle, "tank temperature", "LINE_PRESSURE", rules=keep)
    assert p.x.name == "tank_temperature" and p.y.name == "line_pressure"
    assert p.drawn_rules == (keep[0],) and p.omitted == (keep[1],)


def test_axis_limits_span_thresholds_and_point_with_a_margin(bundle: Bundle):
    p = project(bundle, "tank_temperature", "line_pressure",
                {"tank_temperature": 100, "line_pressure": 300})
    (x0, x1), (y0, y1) = axis_limits(p)
    # x: thresholds 80, 90, 95 and the point 100: span 20, margin 4.
    assert (x0, x1) == pytest.approx((76.0, 104.0))
    # y: thresholds 100, 200, 500; span 400, margin 80; 0 kPa (range end) is close: snap.
    assert (y0, y1) == pytest.approx((0.0, 580.0))


def test_axis_label_has_the_unit(bundle: Bundle):
    assert axis_label(bundle.parameters[bundle.param_index["tank_temperature"]]) == \
        "tank temperature (°C)"


def test_parse_point():
    assert parse_point(["a=1", " b = 2.5 "]) == {"a": "1", "b": "2.5"}
    for bad in (["a"], ["=3"], ["a="], ["a=1", "a=2"]):
        with pytest.raises(StateError):
            parse_point(bad)


@pytest.mark.parametrize("kwargs, piece", [
    ({"x": "oil_temperature", "y": "line_pressure"}, "oil_temperature"),
    ({"x": "tank_temperature", "y": "tank_temperature"}, "two parameters"),
    ({"x": "tank_temperature", "y": "line_pressure", "rules": ["R-nope"]}, "R-nope"),
])
def test_projection_errors(bundle: Bundle, kwargs: dict, piece: str):
    with pytest.raises(PlotError, match=piece):
        project(bundle, **kwargs)


def test_unknown_or_bad_point_values_raise_as_in_query(bundle: Bundle):
    with pytest.raises(StateError, match="oil"):
        project(bundle, "tank_temperature", "line_pressure", {"oil": "3"})
    with pytest.raises(StateError, match="not a number"):
        project(bundle, "tank_temperature", "line_pressure", {"tank_temperature": "hot"})


# ---------------------------------------------------------------- PNG


def test_draw_writes_a_png_of_the_requested_size(bundle: Bundle, tmp_path: Path):
    from PIL import Image

    p = project(bundle, "tank_temperature", "line_pressure",
                {"tank_temperature": 85, "line_pressure": 50, "pump_speed": 2500})
    out = draw(p, tmp_path / "fig.png", size=(640, 480))
    assert png_size(out) == (640, 480)
    with Image.open(out) as image:
        image.load()  # decodes every pixel: a truncated or corrupt file raises
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50  # boxes, text, not a blank canvas


def test_draw_refuses_absurd_sizes(bundle: Bundle, tmp_path: Path):
    p = project(bundle, "tank_temperature", "line_pressure")
    with pytest.raises(PlotError, match="pixels"):
        draw(p, tmp_path / "fig.png", size=(10, 10))


# ---------------------------------------------------------------- command line


def test_cli_plots_the_papers_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    bundle = tmp_path / "rocket.bundle"
    assert main(["compile", str(ROCKET), "-o", str(bundle), "-q"]) == 0
    out = tmp_path / "rocket.png"
    status = main(["plot", str(bundle), "--x", "chamber_temperature", "--y",
                   "chamber_pressure", "--point", "chamber_temperature=820",
                   "chamber_pressure=45", "-o", str(out), "--size", "900x600"])
    err = capsys.readouterr().err
    assert status == 0, err
    assert png_size(out) == (900, 600)
    assert "highlighted R-c3440aa0, R-95723055" in err  # the two rules `query` gives


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 1
    return status, capsys.readouterr().err


@pytest.mark.parametrize("extra, piece", [
    (["--x", "oil", "--y", "line_pressure"], "--x 'oil': unknown parameter"),
    (["--x", "tank_temperature", "--y", "line_pressure", "--point", "tank_temperature"],
     "expected NAME=VALUE"),
    (["--x", "tank_temperature", "--y", "line_pressure", "--point", "oil=3"],
     "unknown parameter 'oil'"),
    (["--x", "tank_temperature", "--y", "line_pressure", "--point", "line_pressure=high"],
     "not a number"),
    (["--x", "tank_temperature", "--y", "line_pressure", "--rules", "R-nope"], "R-nope"),
    (["--x", "tank_temperature", "--y", "line_pressure", "--size", "big"], "--size"),
])
def test_cli_errors_are_one_line(bundle_file: Path, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str], extra: list[str],
                                 piece: str):
    out = tmp_path / "fig.png"
    status, err = run_cli(capsys, "plot", str(bundle_file), *extra, "-o", str(out))
    assert status == 2 and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulec: error:") and piece in lines[0], err
    assert not out.exists()


def test_cli_refuses_a_non_png_name(bundle_file: Path, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]):
    status, err = run_cli(capsys, "plot", str(bundle_file), "--x", "tank_temperature",
                          "--y", "line_pressure", "-o", str(tmp_path / "fig.jpg"))
    assert status == 2 and "*.png" in err


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ))


def test_matplotlib_is_imported_only_to_draw():
    done = _python("import sys\n"
                   "from rulec.compiler import cli\n"
                   "from rulec.compiler.commands import plot as command\n"
                   "from rulec.compiler.kb import plot\n"
                   "cli._parser()\n"
                   "print('matplotlib' in sys.modules)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_missing_matplotlib_is_a_clear_error(bundle_file: Path, tmp_path: Path):
    # An interpreter in which `import matplotlib` fails, as where it is not installed.
    out = tmp_path / "fig.png"
    done = _python("import sys\n"
                   "sys.modules['matplotlib'] = None\n"
                   "from rulec.compiler.cli import main\n"
                   f"sys.exit(main(['plot', {str(bundle_file)!r}, '--x', 'tank_temperature', "
                   f"'--y', 'line_pressure', '-o', {str(out)!r}]))")
    assert done.returncode == 2, done.stderr
    assert "install rulec[ground]" in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()
