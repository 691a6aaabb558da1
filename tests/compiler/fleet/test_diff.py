"""The diff against the bundle in service: spells matched by overlap, and on real
replays every raise of either bundle accounted for exactly once."""

from __future__ import annotations

from rulec.compiler.fleet.diff import diff_rule, diff_runs, episodes, renamed, renamed_rules
from rulec.compiler.fleet.replay_file import replay_file
from rulec.compiler.fleet.runs import find_run_files
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.engine.replay import replay


class E:
    def __init__(self, t: float, event: str, rule: str | None = "R-1") -> None:
        self.t, self.event, self.rule = t, event, rule


def test_spells_pair_raises_with_clears_and_stay_open_to_the_run_end():
    events = [E(1, "raise"), E(2, "fault", None), E(3, "clear"), E(5, "raise"),
              E(6, "raise", "R-2"), E(7, "clear", "R-2")]
    assert episodes(events, 9.0) == {"R-1": [(1, 3, False), (5, 9.0, True)],
                                     "R-2": [(6, 7, False)]}


def test_overlapping_spells_are_one_alarm_moved_others_added_or_removed():
    old = [(1.0, 3.0, False), (10.0, 12.0, False), (20.0, 21.0, False)]
    new = [(1.0, 3.0, False), (11.0, 14.0, False), (30.0, 31.0, False)]
    change = diff_rule(old, new)
    assert change["added"] == [30.0]
    assert change["removed"] == [20.0]
    assert change["shifted"] == [{"old_raise": 10.0, "new_raise": 11.0,
                                  "old_clear": 12.0, "new_clear": 14.0}]


def test_a_spell_open_at_the_end_differs_from_one_cleared_there():
    change = diff_rule([(1.0, 5.0, True)], [(1.0, 5.0, False)])
    assert change["shifted"] == [{"old_raise": 1.0, "new_raise": 1.0, "old_clear": None,
                                  "new_clear": 5.0}]


def test_unchanged_runs_give_no_diff():
    spells = {"R-1": [(1.0, 2.0, False)]}
    assert diff_runs(spells, spells) == {}


def test_a_reworded_rule_is_matched_by_its_place(bundles):
    new, old = (load_bundle(b) for b in bundles)
    renames = renamed_rules(old, new)
    assert len(renames) == 1  # the fixture rewrites one statement (600 °C -> 500 °C)
    ((was, now),) = renames.items()
    before = next(r for r in old.rules if r.id == was)
    after = next(r for r in new.rules if r.id == now)
    assert "500" in before.source["text"] and "600" in after.source["text"]
    assert (before.source["file"], before.source["line"]) == (
        after.source["file"], after.source["line"])
    assert renamed_rules(new, new) == {}


def test_every_raise_of_both_bundles_is_counted_once(bundles, fleet_dir):
    new, old = bundles
    new_bundle, old_bundle = load_bundle(new), load_bundle(old)
    renames = renamed_rules(old_bundle, new_bundle)
    kinds = set()
    for run_file in find_run_files([str(fleet_dir)]):
        (run,) = replay_file(new_bundle, old_bundle, run_file).runs
        end = run.end_s
        before = renamed(episodes(replay(old, run_file.path), end), renames)
        after = episodes(replay(new, run_file.path), end)
        assert run.diff == diff_runs(before, after)
        for rule in set(before) | set(after):
            change = run.diff.get(rule, {"added": [], "removed": [], "shifted": []})
            kinds.update(k for k, v in change.items() if v)
            old_starts = [s[0] for s in before.get(rule, [])]
            new_starts = [s[0] for s in after.get(rule, [])]
            moved_old = [s["old_raise"] for s in change["shifted"]]
            moved_new = [s["new_raise"] for s in change["shifted"]]
            kept = [t for t in old_starts if t not in change["removed"] + moved_old]
            assert sorted(kept + change["removed"] + moved_old) == sorted(old_starts)
            assert sorted(kept + change["added"] + moved_new) == sorted(new_starts)
    assert kinds == {"added", "removed", "shifted"}  # the fixture exercises all three


def _spells(draw_starts: list[float]) -> list[tuple[float, float, bool]]:
    """Non-overlapping spells of one rule from sorted distinct cut points."""
    cuts = sorted(set(draw_starts))
    return [(a, b, False) for a, b in zip(cuts[0::2], cuts[1::2], strict=False)]


def test_every_spell_is_kept_moved_added_or_removed_exactly_once():
    from hypothesis import given
    from hypothesis import strategies as st

    times = st.lists(st.integers(0, 60).map(float), max_size=16)

    @given(times, times)
    def check(a: list[float], b: list[float]) -> None:
        old, new = _spells(a), _spells(b)
        change = diff_rule(old, new)
        moved_old = [s["old_raise"] for s in change["shifted"]]
        moved_new = [s["new_raise"] for s in change["shifted"]]
        kept_old = [s[0] for s in old if s[0] not in change["removed"] + moved_old]
        kept_new = [s[0] for s in new if s[0] not in change["added"] + moved_new]
        assert sorted(kept_old) == sorted(kept_new)  # unchanged spells are the same ones
        assert len(kept_old) + len(change["removed"]) + len(moved_old) == len(old)
        assert len(kept_new) + len(change["added"]) + len(moved_new) == len(new)
        if old == new:
            assert not any(change.values())

    check()
