"""The import's splitter: rare classes reach val, a seed fixes the split, near-identical frames stay in
one split, and a split the source already has is kept."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from core.dataset.importers.splitter import SplitItem, group_items, split_items


def far_hash(rng: random.Random) -> int:
    return rng.getrandbits(64)


def items_with(classes: list[set[str]], seed: int = 1) -> list[SplitItem]:
    rng = random.Random(seed)
    return [SplitItem(f"img{i:04d}", f"/src/photo_{rng.random():.6f}.jpg", frozenset(c), far_hash(rng))
            for i, c in enumerate(classes)]


def test_a_rare_class_appears_in_val():
    classes = [{"common"}] * 95 + [{"rare"}] * 2 + [{"common", "rare2"}] * 3
    result = split_items(items_with(classes), (0.8, 0.2, 0.0), seed=0)
    in_val = Counter(c for item in items_with(classes) if result.assignment[item.key] == "val"
                     for c in item.classes)
    assert in_val["rare"] == 1 and in_val["rare2"] >= 1
    assert 15 <= sum(1 for s in result.assignment.values() if s == "val") <= 25


def test_same_seed_same_split_other_seed_other_split():
    classes = [{"a"}] * 30 + [{"b"}] * 30
    first = split_items(items_with(classes), (0.8, 0.2, 0), seed=3).assignment
    assert split_items(items_with(classes), (0.8, 0.2, 0), seed=3).assignment == first
    assert split_items(items_with(classes), (0.8, 0.2, 0), seed=4).assignment != first


def test_near_identical_frames_and_sequences_stay_in_one_split():
    rng = random.Random(5)
    base = far_hash(rng)
    burst = [SplitItem(f"b{i}", f"/src/other_{i * 7}.jpg", frozenset({"cat"}), base ^ (1 << i)) for i in range(5)]
    clip_hash = far_hash(rng)
    clip = [SplitItem(f"c{i}", f"/src/clip/frame_{i:04d}.jpg", frozenset({"cat"}),
                      clip_hash ^ ((1 << (2 * i)) - 1))  # each frame drifts: far ends differ in 8 bits
            for i in range(5)]
    loose = items_with([{"cat"}] * 20)
    result = split_items(burst + clip + loose, (0.5, 0.5, 0), seed=0)
    assert len({result.assignment[i.key] for i in burst}) == 1
    assert len({result.assignment[i.key] for i in clip}) == 1
    assert result.grouped_images == 10


def test_unrelated_photos_numbered_in_sequence_are_not_grouped():
    rng = random.Random(2)
    photos = [SplitItem(f"p{i}", f"/dcim/IMG_{i:04d}.jpg", frozenset({"cat"}), far_hash(rng)) for i in range(40)]
    assert all(len(g) == 1 for g in group_items(photos))


def test_the_sources_split_is_kept_and_only_the_rest_is_split():
    items = items_with([{"a"}] * 10)
    for item in items[:4]:
        item.split = "val"
    result = split_items(items, (0.8, 0.2, 0), seed=0)
    assert all(result.assignment[i.key] == "val" for i in items[:4])
    assert result.kept_from_source == 4 and len(result.assignment) == 10


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sets(st.sampled_from("abcde"), max_size=3), min_size=1, max_size=60),
       st.integers(0, 1000))
def test_every_item_gets_exactly_one_split(classes, seed):
    items = items_with(classes, seed)
    result = split_items(items, (0.7, 0.2, 0.1), seed=seed)
    assert set(result.assignment) == {i.key for i in items}
    assert set(result.assignment.values()) <= {"train", "val", "test"}
