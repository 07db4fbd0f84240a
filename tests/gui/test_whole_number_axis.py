"""Axes of epochs and trials tick whole numbers only (gui.plotting.WholeNumberAxis): Compare showed "epoch 1.5"
between a two-epoch run's points (issue 32)."""

from __future__ import annotations

from gui.plotting import WholeNumberAxis, whole_ticks


def test_a_short_range_ticks_each_whole_number_and_nothing_between(qtbot):
    axis = WholeNumberAxis("bottom")
    values = [v for _spacing, level in axis.tickValues(0.8, 2.2, 600) for v in level]
    assert values and all(float(v).is_integer() for v in values) and {1.0, 2.0} <= set(values)


def test_a_long_range_keeps_pyqtgraphs_spacing():
    levels = [(20.0, [0.0, 20.0, 40.0]), (5.0, [5.0, 10.0, 15.0])]
    assert whole_ticks(levels, 0, 50) == levels
    assert whole_ticks([(0.5, [1.5])], 0.9, 2.1) == [(1.0, [1.0, 2.0])]  # none kept: each whole number
