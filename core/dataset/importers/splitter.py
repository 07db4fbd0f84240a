"""Train/val/test splits that do not leak: grouped, stratified by class, deterministic for a seed.

Groups first: near-identical frames must land in one split, or val measures memory, not generalisation.
Two images are in one group when their perceptual hashes (``convert.dhash``) differ in at most
``NEAR_BITS`` bits anywhere in the source, or when they are neighbours in a file-name sequence
(``clip_0041.jpg``, ``clip_0042.jpg`` in one folder) and differ in at most ``SEQUENCE_BITS`` — a sequence
alone is not enough, since a camera numbers unrelated photos too. Then iterative stratification
(Sechidis, Tsoumakas & Vlahavas, "On the stratification of multi-label data", ECML 2011): the rarest
class is placed first, each group to the split that still wants most of that class, where every split with
a share gets at least one image of a class that has enough groups — so a rare class appears in val.
An existing split in the source (COCO files, VOC ImageSets, folder names) is kept and only the rest split.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import PurePath

import numpy as np

SPLITS = ("train", "val", "test")
NEAR_BITS = 6  # of 64: the same picture re-encoded, resized or a burst frame
SEQUENCE_BITS = 12  # of 64: the next video frame with motion (unrelated photos differ in ~32)
_SEQUENCE = re.compile(r"^(.*?)(\d+)$")
_ROWS = 512  # hashes compared per block: 512 × a bucket of 20,000 is 80 MB of uint64


@dataclass
class SplitItem:
    key: str  # unique id (the output name)
    name: str  # the source file's path, for sequences
    classes: frozenset[str]
    dhash: int | None = None
    split: str | None = None  # from the source


@dataclass
class SplitResult:
    assignment: dict[str, str] = field(default_factory=dict)  # item key → split
    groups: int = 0
    grouped_images: int = 0  # images that share a group with another
    kept_from_source: int = 0


class _Union:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def join(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _bits(a: int, b: int) -> int:
    return (a ^ b).bit_count()


def group_items(items: list[SplitItem]) -> list[list[int]]:
    """Indices of ``items`` in groups of near-identical frames (each group sorted, groups by first index)."""
    union = _Union(len(items))
    # Near-duplicates anywhere. Equal hashes join at once (a thousand black frames are one bucket entry);
    # two distinct hashes within NEAR_BITS share at least 2 of their 8 bytes (pigeonhole), so candidates
    # come from byte buckets over the distinct hashes and only those pairs are compared.
    first_with: dict[int, int] = {}
    for i, item in enumerate(items):
        if item.dhash is not None:
            union.join(first_with.setdefault(item.dhash, i), i)
    buckets: dict[tuple[int, int], list[int]] = defaultdict(list)
    for value in first_with:
        for band in range(8):
            buckets[(band, (value >> (8 * band)) & 0xFF)].append(value)
    for members in buckets.values():
        if len(members) < 2:
            continue
        values = np.array(members, dtype=np.uint64)
        columns = np.arange(len(members))
        for start in range(0, len(members), _ROWS):  # a block of rows against the whole bucket at once
            block = values[start:start + _ROWS]
            later = columns[None, :] > (start + np.arange(len(block)))[:, None]  # each pair once, never itself
            rows, cols = np.nonzero((np.bitwise_count(block[:, None] ^ values[None, :]) <= NEAR_BITS) & later)
            for x, y in zip(rows.tolist(), cols.tolist()):
                union.join(first_with[members[start + x]], first_with[members[y]])
    # File-name sequences: neighbours in number order within a folder and prefix.
    sequences: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    for i, item in enumerate(items):
        path = PurePath(item.name)
        match = _SEQUENCE.match(path.stem)
        if match:
            sequences[(str(path.parent), match.group(1))].append((int(match.group(2)), i))
    for members in sequences.values():
        members.sort()
        for (na, a), (nb, b) in zip(members, members[1:]):
            ha, hb = items[a].dhash, items[b].dhash
            if nb - na <= 2 and ha is not None and hb is not None and _bits(ha, hb) <= SEQUENCE_BITS:
                union.join(a, b)
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(items)):
        groups[union.find(i)].append(i)
    return sorted(groups.values(), key=lambda g: g[0])


def split_items(items: list[SplitItem], ratios: tuple[float, float, float], seed: int = 0) -> SplitResult:
    """Each item's split. ``ratios`` (train, val, test) need not sum to 1; they are shares."""
    total_ratio = sum(ratios) or 1.0
    shares = {name: r / total_ratio for name, r in zip(SPLITS, ratios)}
    result = SplitResult()
    items = sorted(items, key=lambda it: it.key)
    groups = group_items(items)
    result.groups = len(groups)
    result.grouped_images = sum(len(g) for g in groups if len(g) > 1)
    free: list[list[int]] = []
    for group in groups:
        source = next((items[i].split for i in group if items[i].split in SPLITS), None)
        if source is not None:
            for i in group:  # a group the source split across its splits goes where its first member is
                result.assignment[items[i].key] = items[i].split if items[i].split in SPLITS else source
            result.kept_from_source += len(group)
        else:
            free.append(group)
    if not free:
        return result
    rng = random.Random(seed)
    rng.shuffle(free)
    class_images: Counter[str] = Counter()
    for group in free:
        for i in group:
            class_images.update(items[i].classes)
    active = [s for s in SPLITS if shares[s] > 0]
    n_free = sum(len(g) for g in free)
    want_total = {s: shares[s] * n_free for s in SPLITS}
    groups_with: Counter[str] = Counter()
    for group in free:
        groups_with.update({c for i in group for c in items[i].classes})
    want: dict[str, dict[str, float]] = {}
    for c, n in class_images.items():
        enough = groups_with[c] >= len(active)
        want[c] = {s: (max(shares[s] * n, 1.0) if enough and shares[s] > 0 else shares[s] * n) for s in SPLITS}
    remaining = dict(enumerate(free))  # insertion order: the seed's shuffle
    group_classes = {gid: frozenset(c for i in g for c in items[i].classes) for gid, g in remaining.items()}
    left = Counter(class_images)
    while remaining:
        live = [c for c in left if left[c] > 0]
        rarest = min(live, key=lambda c: (left[c], c)) if live else None
        chosen = [gid for gid in remaining if rarest is None or rarest in group_classes[gid]]
        for gid in chosen:
            group = remaining.pop(gid)
            if rarest is not None:
                target = max(active, key=lambda s: (want[rarest][s], want_total[s], -SPLITS.index(s)))
            else:
                target = max(active, key=lambda s: (want_total[s], -SPLITS.index(s)))
            for i in group:
                result.assignment[items[i].key] = target
                want_total[target] -= 1
                for c in items[i].classes:
                    want[c][target] -= 1
                    left[c] -= 1
    return result
