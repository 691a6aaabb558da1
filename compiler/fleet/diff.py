"""What a new bundle changes on a recorded run against the bundle in service.

Events are compared as raised spells of a rule (raise to clear).  A spell of the new
bundle that overlaps a spell of the same rule in the old one is the same alarm: kept when
both its raise and clear times agree, *shifted* otherwise.  A new spell that overlaps
none is *added*, an old one that overlaps none is *removed*.

Rules are matched by id, and a rule whose id changed because its statement was
reworded (a threshold edited in the manual) is matched by where it stands: one rule of
each bundle at the same file and line, with the same kind, is the same rule
(`renamed_rules`), so a moved threshold shows as shifted alarms, not as one rule
removed and another added.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

Spell = tuple[float, float, bool]  # raise time, clear time (run end if never), open at end
RunDiff = dict[str, dict[str, list[Any]]]  # rule -> added/removed/shifted


def episodes(events: Iterable[Any], end_s: float) -> dict[str, list[Spell]]:
    """Each rule's raised spells, in time order, from a run's raise and clear events."""
    open_at: dict[str, float] = {}
    spells: dict[str, list[Spell]] = {}
    for event in events:
        rule = event.rule
        if rule is None:
            continue
        if event.event == "raise":
            if rule in open_at:  # a raise over a raise: the first spell ends here
                spells.setdefault(rule, []).append((open_at[rule], event.t, False))
            open_at[rule] = event.t
        elif event.event == "clear" and rule in open_at:
            spells.setdefault(rule, []).append((open_at.pop(rule), event.t, False))
    for rule, start in open_at.items():
        spells.setdefault(rule, []).append((start, max(start, end_s), True))
    return spells


def _overlap(a: Spell, b: Spell) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def diff_rule(old: list[Spell], new: list[Spell]) -> dict[str, list[Any]]:
    """Added and removed raise times and shifted spells of one rule on one run."""
    added: list[float] = []
    removed: list[float] = []
    shifted: list[dict[str, float | None]] = []
    i = j = 0
    while i < len(old) and j < len(new):
        a, b = old[i], new[j]
        if _overlap(a, b):
            if a[:2] != b[:2] or a[2] != b[2]:
                shifted.append({"old_raise": a[0], "new_raise": b[0],
                                "old_clear": None if a[2] else a[1],
                                "new_clear": None if b[2] else b[1]})
            i += 1
            j += 1
        elif a[1] < b[0]:
            removed.append(a[0])
            i += 1
        else:
            added.append(b[0])
            j += 1
    removed.extend(s[0] for s in old[i:])
    added.extend(s[0] for s in new[j:])
    return {"added": added, "removed": removed, "shifted": shifted}


def diff_runs(old: Mapping[str, list[Spell]], new: Mapping[str, list[Spell]]) -> RunDiff:
    """Per rule, what changed on one run; rules with no change are left out."""
    out: RunDiff = {}
    for rule in sorted(set(old) | set(new)):
        change = diff_rule(old.get(rule, []), new.get(rule, []))
        if any(change.values()):
            out[rule] = change
    return out


def count(change: Mapping[str, list[Any]]) -> dict[str, int]:
    """Added, removed and shifted counts of one rule's change."""
    return {k: len(change.get(k, ())) for k in ("added", "removed", "shifted")}


def renamed_rules(old: Any, new: Any) -> dict[str, str]:
    """Old id -> new id for rules that changed id but stand at the same file and line
    with the same kind, one rule on each side (a shared place is left unmatched)."""
    def places(bundle: Any) -> dict[tuple[Any, ...], str]:
        keys = [(r.source.get("file"), r.source.get("line"), r.kind) for r in bundle.rules]
        counts = Counter(keys)
        return {k: r.id for k, r in zip(keys, bundle.rules, strict=True) if counts[k] == 1}

    new_ids = {r.id for r in new.rules}
    old_ids = {r.id for r in old.rules}
    before, after = places(old), places(new)
    return {before[k]: after[k] for k in before.keys() & after.keys()
            if before[k] != after[k] and before[k] not in new_ids and after[k] not in old_ids}


def renamed(spells: Mapping[str, list[Spell]], renames: Mapping[str, str]
            ) -> dict[str, list[Spell]]:
    """Spells keyed by the new bundle's ids."""
    return {renames.get(rule, rule): s for rule, s in spells.items()}
