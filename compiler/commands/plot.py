"""`rulec plot BUNDLE --x P --y Q [--point NAME=VALUE ...] -o fig.png`: the paper's figure.

Command-line glue for ``compiler/kb/plot.py``: parse the flags, project the bundle, draw the
PNG, and say on stderr what was drawn.  Errors (unknown parameter or rule, bad
NAME=VALUE, matplotlib missing) are the usual one-line `rulec: error:`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

DEFAULT_SIZE = "1100x750"


def register(subparsers: Any) -> None:
    """Add the `plot` command to the `rulec` sub-command parsers."""
    p = subparsers.add_parser(
        "plot", help="rule boxes on two parameters, with a query point (PNG)",
        description="Draw the rule boxes of a bundle projected on two parameters: rules on "
        "one of the two only are bands across the other, rules on neither are counted under "
        "the figure.  With --point, the runtime engine evaluates the whole point and the "
        "boxes that contain it are highlighted and named.  Needs matplotlib "
        "(install rulec[ground]).")
    p.add_argument("bundle", type=Path, metavar="BUNDLE")
    p.add_argument("--x", required=True, metavar="PARAM", help="parameter on the x axis")
    p.add_argument("--y", required=True, metavar="PARAM", help="parameter on the y axis")
    p.add_argument("--point", action="extend", nargs="+", default=[], metavar="NAME=VALUE",
                   help="the query state, every parameter it has (manifest units); the "
                   "x and y values place the star")
    p.add_argument("-o", "--output", required=True, type=Path, metavar="FIG.png")
    p.add_argument("--rules", metavar="ID,...", help="draw only these rules")
    p.add_argument("--title", help="the figure's title (default: the two axes)")
    p.add_argument("--size", default=DEFAULT_SIZE, metavar="WxH",
                   help=f"PNG size in pixels (default {DEFAULT_SIZE})")
    p.set_defaults(run=run_plot)


def parse_point(items: Iterable[str]) -> dict[str, str]:
    """``["chamber_temperature=820", ...]`` -> a state; a malformed item is a StateError."""
    from rulec.runtime.errors import StateError

    state: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name or not value.strip():
            raise StateError(f"--point {item!r}: expected NAME=VALUE")
        if name in state:
            raise StateError(f"--point: parameter {name!r} is given twice")
        state[name] = value.strip()
    return state


def parse_size(text: str) -> tuple[int, int]:
    """``"1100x750"`` -> (1100, 750)."""
    from rulec.compiler.kb.plot import PlotError

    w, sep, h = text.lower().partition("x")
    if not sep or not w.strip().isdigit() or not h.strip().isdigit():
        raise PlotError(f"--size {text!r}: expected WIDTHxHEIGHT in pixels, e.g. 1100x750")
    return int(w), int(h)


def run_plot(args: argparse.Namespace) -> int:
    from rulec.compiler.commands.outputs import refuse_overwriting_inputs
    from rulec.compiler.kb.plot import PlotError, draw, project
    from rulec.runtime.bundle.loader import load_bundle

    refuse_overwriting_inputs([("-o", args.output)], [args.bundle])
    if args.output.suffix.lower() != ".png":
        raise PlotError(f"-o {args.output}: the figure is a PNG; name it *.png")
    size = parse_size(args.size)
    state = parse_point(args.point)
    rules = [r.strip() for r in args.rules.split(",") if r.strip()] if args.rules else None
    projection = project(load_bundle(str(args.bundle)), args.x, args.y, state, rules)
    draw(projection, args.output, size=size, title=args.title)
    lit = projection.highlighted
    print(f"wrote {args.output}: {len(projection.drawn_rules)} rule(s) drawn, "
          f"{len(projection.omitted)} on neither axis; "
          + (f"highlighted {', '.join(lit)}" if lit else "nothing highlighted"),
          file=sys.stderr)
    return 0
