"""The paper's figure: a bundle's rule boxes projected on two parameters, with a query point.

``project`` is the pure part: which boxes touch the plane of two parameters, which are
bands (a rule on one of the two axes only), which rules constrain neither axis, and which
boxes contain the query point.  The highlighting is the runtime Engine's answer for the
*whole* point (every parameter given, not just the two drawn), so a box whose projection
holds the star but whose rule needs a third parameter is not highlighted.  ``draw``
renders a projection as a PNG with matplotlib (the ``[ground]`` extra), imported only
here and only when a figure is drawn, on an Agg canvas (no display, no pyplot state).
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulec.runtime.bundle.loader import Bundle, ParameterSpec
from rulec.runtime.engine.advisory import format_value, unit_suffix
from rulec.runtime.errors import RulecError
from rulec.runtime.vocabulary import SEVERITIES

SEVERITY_COLORS = {"warning": "#c62828", "caution": "#ef8a17", "advisory": "#1f6fb4"}
PAD = 0.2  # each axis shows its thresholds and the point with this fraction of margin
NAME_ALL = 8  # up to this many rules drawn, every one is named; beyond, only fired ones


class PlotError(RulecError, ValueError):
    """The figure cannot be drawn as asked (unknown parameter, bad size, no matplotlib)."""


@dataclass(frozen=True)
class Side:
    """A box's extent on one axis: ``lo < x < hi``, with inclusive ends where flagged."""

    lo: float = -math.inf
    hi: float = math.inf
    lo_incl: bool = False
    hi_incl: bool = False

    @property
    def bounded(self) -> bool:
        return math.isfinite(self.lo) or math.isfinite(self.hi)

    def meet(self, lo: float, hi: float, flags: int) -> Side:
        """The intersection with one more constraint on the same axis."""
        new_lo, lo_incl = self.lo, self.lo_incl
        if lo > new_lo or (lo == new_lo and not flags & 1):
            new_lo, lo_incl = lo, bool(flags & 1)
        new_hi, hi_incl = self.hi, self.hi_incl
        if hi < new_hi or (hi == new_hi and not flags & 2):
            new_hi, hi_incl = hi, bool(flags & 2)
        return Side(new_lo, new_hi, lo_incl, hi_incl)


@dataclass(frozen=True)
class ProjectedBox:
    """One box of one rule, seen on the (x, y) plane."""

    rule_id: str
    severity: str
    box: int
    shape: str  # "box" (both axes), "x_band" (x only), "y_band" (y only)
    x: Side
    y: Side
    others: tuple[str, ...]  # other parameters the box also constrains
    contains_point: bool  # every comparison of the box holds at the full point
    highlighted: bool  # ...and the Engine fires its rule for that point


@dataclass(frozen=True)
class Projection:
    """What the figure shows; see ``project``."""

    x: ParameterSpec
    y: ParameterSpec
    boxes: tuple[ProjectedBox, ...]
    drawn_rules: tuple[str, ...]
    omitted: tuple[str, ...]  # rules with no box on either axis (not drawn)
    fired: tuple[str, ...]  # the Engine's answer for the full point, most severe first
    point: dict[str, float]  # the valid values of the point, by canonical name
    faults: tuple[str, ...]  # the point's invalid values, as the Engine reports them
    condition: dict[str, str]  # rule id -> condition text
    name: str = ""  # what the bundle was compiled from
    units: dict[str, str] = field(default_factory=dict)  # parameter -> unit

    @property
    def highlighted(self) -> tuple[str, ...]:
        ids = {b.rule_id for b in self.boxes if b.highlighted}
        return tuple(r for r in self.fired if r in ids)

    @property
    def point_xy(self) -> tuple[float | None, float | None]:
        return self.point.get(self.x.name), self.point.get(self.y.name)

    @property
    def waiting(self) -> tuple[str, ...]:
        """Rules with a box around the point that the Engine does not fire (durations)."""
        ids = {b.rule_id for b in self.boxes if b.contains_point and not b.highlighted}
        return tuple(sorted(ids))


def parameter(bundle: Bundle, name: str, flag: str) -> ParameterSpec:
    """A parameter by name or alias; an unknown one is a PlotError listing the known."""
    index = bundle.param_index.get(name)
    if index is None:
        index = bundle.alias_index.get(" ".join(name.lower().replace("_", " ").split()))
    if index is None:
        known = ", ".join(p.name for p in bundle.parameters) or "none"
        raise PlotError(f"{flag} {name!r}: unknown parameter (known: {known})")
    return bundle.parameters[index]


def project(bundle: Bundle, x: str, y: str, point: Mapping[str, Any] | None = None,
            rules: Sequence[str] | None = None) -> Projection:
    """Project the bundle's boxes on parameters x and y; highlight what fires at `point`.

    `rules` restricts the figure to those rule ids.  The point goes through the runtime
    Engine exactly as ``rulec query`` would (unknown names and bad values raise)."""
    from rulec.runtime.engine.engine import Engine
    from rulec.runtime.engine.proof import comparisons

    px, py = parameter(bundle, x, "--x"), parameter(bundle, y, "--y")
    if px.name == py.name:
        raise PlotError(f"--x and --y both name {px.name!r}: give two parameters")
    chosen: set[int] | None = None
    if rules is not None:
        unknown = [r for r in rules if r not in bundle.rule_index]
        if unknown:
            raise PlotError(f"--rules: unknown rule id(s) {', '.join(unknown)}")
        chosen = {bundle.rule_index[r] for r in rules}
    state = dict(point or {})
    engine = Engine(bundle)
    vector, faults = engine.state_vector(state)
    fired = tuple(r.id for r in engine.evaluate(state).rules) if state else ()
    ax, ay = bundle.param_index[px.name], bundle.param_index[py.name]
    b = bundle.boxes
    boxes: list[ProjectedBox] = []
    for box in range(b.n_boxes):
        r = int(b.rule[box])
        if chosen is not None and r not in chosen:
            continue
        sx, sy, others = Side(), Side(), []
        for c in range(int(b.start[box]), int(b.start[box + 1])):
            axis, lo, hi, flags = int(b.axis[c]), float(b.lo[c]), float(b.hi[c]), int(b.flags[c])
            if axis == ax:
                sx = sx.meet(lo, hi, flags)
            elif axis == ay:
                sy = sy.meet(lo, hi, flags)
            else:
                others.append(bundle.parameters[axis].name)
        if not sx.bounded and not sy.bounded:
            continue
        spec = bundle.rules[r]
        contains = bool(state) and all(c.holds for c in comparisons(bundle, box, vector))
        shape = "box" if sx.bounded and sy.bounded else ("x_band" if sx.bounded else "y_band")
        boxes.append(ProjectedBox(spec.id, spec.severity, box, shape, sx, sy,
                                  tuple(dict.fromkeys(others)), contains,
                                  contains and spec.id in fired))
    pool = [bundle.rules[i] for i in sorted(chosen)] if chosen is not None else bundle.rules
    drawn = {p.rule_id for p in boxes}
    values = {p.name: float(vector[i]) for i, p in enumerate(bundle.parameters)
              if not math.isnan(float(vector[i]))}
    return Projection(
        px, py, tuple(boxes), tuple(r.id for r in pool if r.id in drawn),
        tuple(r.id for r in pool if r.id not in drawn), fired, values,
        tuple(f"{f.parameter}: {f.reason}" for f in faults),
        {r.id: _shown_units(bundle, r.condition_text) for r in bundle.rules},
        str(bundle.meta.get("created_from", "")), {p.name: p.unit for p in bundle.parameters})


def _shown_units(bundle: Bundle, text: str) -> str:
    """"> 800 degC" -> "> 800 °C": condition texts read as the axes do."""
    for unit in sorted({p.unit for p in bundle.parameters if p.unit}, key=len, reverse=True):
        text = re.sub(rf"(?<=\d) {re.escape(unit)}\b", unit_suffix(unit), text)
    return text


def axis_limits(projection: Projection) -> tuple[tuple[float, float], tuple[float, float]]:
    """Each axis spans its finite thresholds and the point, with a margin, clipped to the
    parameter's sensor range where that is finite."""
    px, py = projection.point_xy
    return (_limits([v for b in projection.boxes for v in (b.x.lo, b.x.hi)], px, projection.x),
            _limits([v for b in projection.boxes for v in (b.y.lo, b.y.hi)], py, projection.y))


def _limits(bounds: list[float], point: float | None, param: ParameterSpec) -> tuple[float, float]:
    values = [v for v in bounds if math.isfinite(v)] + ([point] if point is not None else [])
    if not values:
        lo, hi = param.range_lo, param.range_hi
        return (lo, hi) if math.isfinite(lo) and math.isfinite(hi) and lo < hi else (0.0, 1.0)
    lo, hi = min(values), max(values)
    span = hi - lo if hi > lo else max(abs(lo), 1.0)
    lo, hi = lo - PAD * span, hi + PAD * span
    # a sensor range end close to the window is where the axis starts or stops (0 psi)
    if math.isfinite(param.range_lo) and lo - 2 * PAD * span <= param.range_lo < hi:
        lo = param.range_lo
    if math.isfinite(param.range_hi) and lo < param.range_hi <= hi + 2 * PAD * span:
        hi = param.range_hi
    return lo, hi


def axis_label(param: ParameterSpec) -> str:
    """"chamber temperature (°C)"; a unitless count has no parenthesis."""
    unit = unit_suffix(param.unit).strip()
    words = param.name.replace("_", " ")
    return f"{words} ({unit})" if unit else words


def default_title(projection: Projection) -> str:
    where = f"{projection.name}: " if projection.name else ""
    return f"{where}rule boxes on {projection.x.name} × {projection.y.name}"


def footnotes(projection: Projection) -> list[str]:
    """The lines under the figure: what the highlight means and what is not drawn."""
    p = projection
    lines = []
    if p.point:
        state = ", ".join(f"{k} = {format_value(v)}{unit_suffix(p.units.get(k, ''))}"
                          for k, v in p.point.items())
        fired = ", ".join(p.fired) or "no rule"
        lines.append(f"Query point: {state}.  The runtime engine fires {fired}.")
        hidden = [r for r in p.fired if r not in p.highlighted]
        if hidden:
            lines.append(f"Fired but not on these axes: {_ids(hidden)}.")
        if p.waiting:
            lines.append(f"Box contains the point, but the rule needs a duration or more: "
                         f"{_ids(p.waiting)}.")
    if p.faults:
        lines.append(f"Invalid values (they satisfy no condition): {'; '.join(p.faults)}.")
    if p.omitted:
        lines.append(f"{len(p.omitted)} rule(s) constrain neither axis and are not drawn: "
                     f"{_ids(p.omitted)}.")
    lines.append("Edges: solid = bound included, dashed = bound excluded.  Bands: rules on "
                 "one axis only.  Hatched: the box also constrains other parameters.")
    return lines


def _ids(ids: Sequence[str], limit: int = 8) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


# ---------------------------------------------------------------- drawing


def _matplotlib() -> tuple[Any, Any, Any]:
    """(Figure, FigureCanvasAgg, patches), imported on first use: matplotlib is optional.
    The figure is drawn on an Agg canvas of its own; pyplot's global backend is untouched."""
    try:
        from matplotlib import patches
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotError("matplotlib is not installed: install rulec[ground] "
                        "(pip install 'rulec[ground]')") from None
    return Figure, FigureCanvasAgg, patches


def draw(projection: Projection, output: Path, size: tuple[int, int] = (1100, 750),
         title: str | None = None, dpi: int = 100) -> Path:
    """Write the figure as a PNG of exactly `size` pixels."""
    width, height = size
    if not (200 <= width <= 8000 and 200 <= height <= 8000):
        raise PlotError(f"--size {width}x{height}: each side must be 200 to 8000 pixels")
    Figure, FigureCanvasAgg, patches = _matplotlib()
    notes = [line for note in footnotes(projection)
             for line in textwrap.wrap(note, max(60, width // 7))]
    fig = Figure(figsize=(width / dpi, height / dpi), dpi=dpi)
    FigureCanvasAgg(fig)
    line_h = 15 / height  # one footnote line, as a fraction of the figure
    bottom = 0.085 + (len(notes) + 1) * line_h
    fig.subplots_adjust(left=0.08, right=0.66, top=0.91, bottom=min(bottom, 0.6))
    ax = fig.add_subplot()
    (x0, x1), (y0, y1) = axis_limits(projection)
    quiet = [b for b in projection.boxes if not b.highlighted]
    loud = [b for b in projection.boxes if b.highlighted]
    for group in (quiet, loud):  # many overlapping boxes: each fill gets lighter
        for b in group:
            _draw_box(ax, patches, b, (x0, x1), (y0, y1), len(group))
    px, py = projection.point_xy
    used: dict[tuple[float, float, bool, bool], int] = {}
    _label_boxes(ax, loud, (x0, x1), (y0, y1), (px, py), used, strong=True)
    if len(projection.drawn_rules) <= NAME_ALL:  # few rules: name the others too
        _label_boxes(ax, quiet, (x0, x1), (y0, y1), (px, py), used, strong=False)
    if px is not None and py is not None:
        ax.plot([px], [py], marker="*", markersize=20, color="#111111",
                markeredgecolor="white", markeredgewidth=1.2, zorder=10, linestyle="none")
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_xlabel(axis_label(projection.x), fontsize=11)
    ax.set_ylabel(axis_label(projection.y), fontsize=11)
    ax.grid(alpha=0.25, linewidth=0.6)
    ax.set_title(title or default_title(projection), fontsize=12, loc="left")
    fig.legend(handles=_legend(projection, patches, width, height), loc="upper left",
               bbox_to_anchor=(0.675, 0.91), fontsize=8.5, frameon=False,
               handlelength=1.6, alignment="left")
    for i, line in enumerate(notes):
        fig.text(0.02, 0.02 + (len(notes) - 1 - i) * line_h, line, fontsize=8.5,
                 color="#333333", va="bottom")
    try:
        fig.savefig(output, dpi=dpi, format="png")
    except OSError as exc:
        raise PlotError(f"{output}: cannot write: {exc.strerror or exc}") from None
    return output


def _clip(side: Side, lim: tuple[float, float]) -> tuple[float, float]:
    return max(side.lo, lim[0]), min(side.hi, lim[1])


def _draw_box(ax: Any, patches: Any, b: ProjectedBox, xl: tuple[float, float],
              yl: tuple[float, float], crowd: int) -> None:
    (bx0, bx1), (by0, by1) = _clip(b.x, xl), _clip(b.y, yl)
    if bx1 < bx0 or by1 < by0:
        return  # outside the drawn window
    color = SEVERITY_COLORS.get(b.severity, "#555555")
    band = b.shape != "box"
    top = 0.38 if b.highlighted else 0.12
    alpha = max(0.02, min(top, (1.2 if b.highlighted else 0.8) / max(crowd, 1)))
    alpha *= 0.55 if band else 1.0
    z = 3 if b.highlighted else 1
    ax.add_patch(patches.Rectangle((bx0, by0), max(bx1 - bx0, 0.0), max(by1 - by0, 0.0),
                                   facecolor=color, alpha=alpha, linewidth=0, zorder=z))
    if b.others:
        ax.add_patch(patches.Rectangle((bx0, by0), bx1 - bx0, by1 - by0, fill=False,
                                       hatch="///", edgecolor=color, alpha=0.35,
                                       linewidth=0, zorder=z))
    width = 2.2 if b.highlighted else 1.0
    edge_alpha = 1.0 if b.highlighted else 0.6
    for value, incl, vertical in ((b.x.lo, b.x.lo_incl, True), (b.x.hi, b.x.hi_incl, True),
                                  (b.y.lo, b.y.lo_incl, False), (b.y.hi, b.y.hi_incl, False)):
        if not math.isfinite(value):
            continue  # an open side has no edge: the box runs on past the window
        style = "-" if incl else "--"
        if vertical and xl[0] <= value <= xl[1]:
            ax.plot([value, value], [by0, by1], linestyle=style, color=color,
                    linewidth=width, alpha=edge_alpha, zorder=z + 1)
        elif not vertical and yl[0] <= value <= yl[1]:
            ax.plot([bx0, bx1], [value, value], linestyle=style, color=color,
                    linewidth=width, alpha=edge_alpha, zorder=z + 1)


def _label_boxes(ax: Any, boxes: Sequence[ProjectedBox], xl: tuple[float, float],
                 yl: tuple[float, float], point: tuple[float | None, float | None],
                 used: dict[tuple[float, float, bool, bool], int], strong: bool) -> None:
    """Each box's rule id inside a corner of its visible part: away from the star (a label
    never hides the point), on the box's own bounds where it can; labels sharing a corner
    stack."""
    seen: set[str] = set()
    sx = (xl[1] - xl[0]) or 1.0
    sy = (yl[1] - yl[0]) or 1.0
    px = (point[0] - xl[0]) / sx if point[0] is not None else 0.5
    py = (point[1] - yl[0]) / sy if point[1] is not None else 0.5
    for b in boxes:
        if b.rule_id in seen:
            continue
        seen.add(b.rule_id)
        (x0, x1), (y0, y1) = _clip(b.x, xl), _clip(b.y, yl)
        # a corner on the box's real bounds (not the window's edge) says which box it is
        edges = {(x0, False): math.isfinite(b.x.lo) and b.x.lo >= xl[0],
                 (x1, True): math.isfinite(b.x.hi) and b.x.hi <= xl[1],
                 (y0, False): math.isfinite(b.y.lo) and b.y.lo >= yl[0],
                 (y1, True): math.isfinite(b.y.hi) and b.y.hi <= yl[1]}
        corners = [(cx, cy, right, top, int(edges[(cx, right)]) + int(edges[(cy, top)]),
                    math.hypot((cx - xl[0]) / sx - px, (cy - yl[0]) / sy - py))
                   for cx, right in ((x0, False), (x1, True))
                   for cy, top in ((y0, False), (y1, True))]
        cx, cy, right, top, _, _ = max(corners, key=lambda c: (c[5] > 0.15, c[4], c[5]))
        key = (round((cx - xl[0]) / sx, 2), round((cy - yl[0]) / sy, 2), right, top)
        n = used.get(key, 0)
        used[key] = n + 1
        step = 5 + 14 * n
        ax.annotate(b.rule_id, (cx, cy), xytext=(-5 if right else 5, -step if top else step),
                    textcoords="offset points", va="top" if top else "bottom",
                    ha="right" if right else "left", fontsize=9 if strong else 7.5,
                    fontweight="bold" if strong else "normal", zorder=12 if strong else 6,
                    color=SEVERITY_COLORS.get(b.severity, "#333333"),
                    alpha=1.0 if strong else 0.8,
                    bbox={"boxstyle": "round,pad=0.15", "facecolor": "white",
                          "edgecolor": "none", "alpha": 0.85 if strong else 0.6})


def _legend(projection: Projection, patches: Any, width: int, height: int) -> list[Any]:
    """Fired rules with their conditions, the other drawn rules when they are few, the key."""
    from matplotlib.lines import Line2D

    def header(text: str) -> Any:
        return Line2D([], [], linestyle="none", label=text)

    wrap = max(30, int(width * 0.30 / 8))
    handles: list[Any] = []
    severity = {b.rule_id: b.severity for b in projection.boxes}
    fired = projection.highlighted
    others = [r for r in projection.drawn_rules if r not in fired] \
        if len(projection.drawn_rules) <= NAME_ALL else []
    room = max(3, int(height * 0.55 / 34))  # entries that fit above the key
    for title, ids, alpha in (("Fired at the query point:", fired, 0.6),
                              ("Not fired:" if projection.point else "Rules drawn:", others,
                               0.2)):
        if not ids:
            continue
        handles.append(header(title))
        for rule_id in ids[:room]:
            sev = severity[rule_id]
            text = textwrap.fill(f"{rule_id} [{sev}]: {projection.condition[rule_id]}", wrap,
                                 subsequent_indent="   ")
            handles.append(patches.Patch(facecolor=SEVERITY_COLORS.get(sev, "#555555"),
                                         alpha=alpha, edgecolor="black", label=text))
        if len(ids) > room:
            handles.append(header(textwrap.fill(
                f"... and {len(ids) - room} more: {_ids(ids[room:], 6)}", wrap)))
        room = max(0, room - len(ids))
    if not fired and projection.point:
        handles.insert(0, header("Nothing fires at the query point."))
    handles.append(header(" "))
    for sev in SEVERITIES:
        if any(b.severity == sev for b in projection.boxes):
            handles.append(patches.Patch(facecolor=SEVERITY_COLORS[sev], alpha=0.25,
                                         label=f"{sev}"))
    if all(v is not None for v in projection.point_xy):
        handles.append(Line2D([], [], marker="*", markersize=13, color="#111111",
                              linestyle="none", label="query point"))
    return handles
