"""Regenerate the seed corpora in fuzz/seeds/ from the project's own real inputs.

frame_decoder: the shared protocol vectors (tests/vectors), one file per frame and per
stream, plus every frame in one stream.  bundle_loader: a small bundle compiled here
from a three-rule manual and the access_control example bundle, each as a framed
payload (first byte 0x00) and as the raw file (0x01).  sensors_toml: the examples'
sensors.toml files.  manual_parser: each paragraph of the example manuals, a few
short manuals whole, and one short document per layout in ``LAYOUTS``.  Run:
``.venv/bin/python fuzz/make_seeds.py`` (needs rulec installed; the seeds are committed,
so the fuzz runs and tests do not call this).
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import HEADER_SIZE, encode_bundle

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "fuzz" / "seeds"
EXAMPLES = ROOT / "examples" / "manuals"

SMALL_MANUAL = """Hot fire limits

If the chamber temperature exceeds 600 °C, increase the coolant flow by 25 %.
The chamber pressure must not exceed 1,200 psi.
Do not open the oxidizer valve and the fuel valve at the same time.
"""

# Layouts the manual parser reads beyond prose, one short document each: mutation alone
# rarely builds a ruled column table or a block of labelled fields.
LAYOUTS = {
    "alarm_table": """Table 8-1  Fixed alarm conditions

    Alarm message   Priority  Alarm condition                  Console response
    --------------  --------  -------------------------------  ----------------
    AIR IN LINE     High      bubble size 5 mm or larger       pump stops
    TEMP HIGH       Medium    blood temperature above 39.0 °C  message only
""",
    "setpoint_schedule": """Tag       Parameter                     Function       Limit
--------  ----------------------------  -------------  -------
TAH-211   Upper guide bearing temperature  High alarm  > 70 °C
PALL-301  Governor oil pressure         Low-low trip   ≤ 32 bar
""",
    "cause_effect_fields": """CE-03  DISCHARGE TEMPERATURE HIGH-HIGH
       Cause:   discharge temperature 165 °C or higher (TT-1205A/B, 1oo2)
       Effect:  NSD of the unit
       Reset:   control room
       Note:    Revision 5 raised this trip from 160 °C to 165 °C.
""",
    "cause_list": """The burner management system trips on any one of the following causes:

  C1  Fuel gas pressure low-low (2oo3): fuel gas pressure below 5 psig
  C2  Arch pressure high: arch pressure above +0.25 mbar
PAL-1106   Fuel gas pressure 8 psig or lower -> check PCV-1105
""",
    "definition_list": """F07 TEMPERATURE LOW IN HOLD
:   If, during the holding time, the chamber temperature drops below 134 °C and stays
    there for more than 10 s, the cycle is aborted.
""",
    "limits_markdown": """| Parameter | Minimum | Maximum | Unit |
|---|---|---|---|
| Oil pressure | 20 | 100 | psi |
| Oil temperature | — | 245 | °F |

- Superheat: 25 K maximum
- Maximum operating altitude ........ 41,000 ft
""",
}


def _write(folder: Path, name: str, data: bytes) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


def _compile(folder: Path) -> bytes:
    result = collect_rules([folder])
    return encode_bundle(build_payload(result, folder.name))


def frame_seeds(out: Path) -> None:
    vectors = json.loads((ROOT / "tests" / "vectors" / "protocol_vectors.json").read_text())
    frames = [bytes.fromhex(f["frame"]) for f in vectors["frames"]]
    for f, raw in zip(vectors["frames"], frames, strict=True):
        _write(out, f"frame_{f['name']}", raw)
    for s in vectors["streams"]:
        _write(out, f"stream_{s['name']}", bytes.fromhex(s["stream"]))
    _write(out, "stream_all_frames", b"".join(frames))


def bundle_seeds(out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "small"
        folder.mkdir()
        shutil.copy(EXAMPLES / "rocket_engine" / "sensors.toml", folder / "sensors.toml")
        (folder / "limits.txt").write_text(SMALL_MANUAL, encoding="utf-8")
        bundles = {
            "small": _compile(folder),
            "access_control": _compile(EXAMPLES / "access_control"),
        }
    for name, data in bundles.items():
        _write(out, f"{name}_payload", b"\x00" + data[HEADER_SIZE:])
        _write(out, f"{name}_file", b"\x01" + data)


def sensors_seeds(out: Path) -> None:
    for path in sorted(EXAMPLES.glob("*/sensors.toml")):
        _write(out, f"{path.parent.name}.toml", path.read_bytes())


def manual_seeds(out: Path) -> None:
    for path in sorted(EXAMPLES.glob("*/*")):
        if path.suffix not in (".txt", ".md"):
            continue
        text = path.read_text(encoding="utf-8")
        blocks = [b.strip("\n") for b in text.split("\n\n") if b.strip()]
        for i, block in enumerate(blocks, start=1):
            _write(out, f"{path.parent.name}_{path.stem}_{i:02d}.txt", (block + "\n").encode())
        if len(text) < 1400:
            _write(out, f"{path.parent.name}_{path.stem}_whole{path.suffix}", text.encode())
    for name, text in LAYOUTS.items():
        _write(out, f"layout_{name}.txt", text.encode())


def main() -> int:
    for target, make in (
        ("frame_decoder", frame_seeds),
        ("bundle_loader", bundle_seeds),
        ("sensors_toml", sensors_seeds),
        ("manual_parser", manual_seeds),
    ):
        folder = SEEDS / target
        if folder.exists():
            shutil.rmtree(folder)
        make(folder)
        print(f"{target}: {len(list(folder.iterdir()))} seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
