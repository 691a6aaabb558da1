"""The manual-shaped workload gives the share of matches asked for, in the shapes stated."""

from __future__ import annotations

import numpy as np
import pytest
from workloads import SHARE_GT, SHARE_LT, make_manual_workload


@pytest.mark.parametrize("share", [0.003, 0.03, 0.1, 0.3])
def test_a_state_matches_about_the_share_asked(share: float) -> None:
    w = make_manual_workload(4000, 8, share, n_points=400, seed=3)
    idx = w.index()
    got = np.mean([idx.match(p).shape[0] for p in w.points]) / w.n_rules
    assert share * 0.75 < got < share * 1.25


def test_rules_are_mostly_one_sided_thresholds_on_one_to_three_parameters() -> None:
    w = make_manual_workload(20000, 8, 0.1, n_points=10)
    sizes = np.diff(w.start)
    assert set(np.unique(sizes).tolist()) == {1, 2, 3}
    for b in range(0, w.n_rules, 997):  # distinct parameters within a rule
        axes = w.axis[w.start[b]: w.start[b + 1]]
        assert len(set(axes.tolist())) == axes.shape[0]
    gt = np.mean(np.isinf(w.hi) & np.isfinite(w.lo))
    lt = np.mean(np.isinf(w.lo) & np.isfinite(w.hi))
    assert abs(gt - SHARE_GT) < 0.02 and abs(lt - SHARE_LT) < 0.02


def test_some_state_values_sit_exactly_on_a_threshold() -> None:
    w = make_manual_workload(5000, 8, 0.03, n_points=200)
    bounds = np.r_[w.lo, w.hi]
    on_bound = np.isin(w.points, bounds[np.isfinite(bounds)])
    assert 0.01 < on_bound.mean() < 0.2


def test_a_share_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError, match="share"):
        make_manual_workload(10, 2, 0.0)
