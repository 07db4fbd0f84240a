"""The class list of an import: rename, merge (two names renamed to one), drop, keep only a given list,
and names that are one class spelled two ways (``Person`` / ``person`` / ``person ``, ``traffic_light`` /
``traffic light``), flagged so the user can merge them (``--merge-variants`` does it to the commonest).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field


def variant_key(name: str) -> str:
    """What two spellings of one class share: case, surrounding space and ``_``/``-``/space runs ignored."""
    return re.sub(r"[\s_\-]+", " ", name.casefold()).strip()


def spelling_variants(counts: Counter[str]) -> list[list[str]]:
    """Groups of two or more names that differ only in spelling, commonest first in each group."""
    groups: dict[str, list[str]] = defaultdict(list)
    for name in counts:
        groups[variant_key(name)].append(name)
    return [sorted(names, key=lambda n: (-counts[n], n)) for _, names in sorted(groups.items()) if len(names) > 1]


@dataclass
class ClassMap:
    rename: dict[str, str] = field(default_factory=dict)  # source name → output name (merge: same target)
    drop: set[str] = field(default_factory=set)  # source or output names left out
    only: list[str] | None = None  # the output classes, in this order (others are dropped)

    def with_variants_merged(self, counts: Counter[str]) -> ClassMap:
        """A copy that also renames every spelling variant to its group's commonest spelling."""
        rename = dict(self.rename)
        for group in spelling_variants(counts):
            for name in group[1:]:
                rename.setdefault(name, rename.get(group[0], group[0]))
        return ClassMap(rename, set(self.drop), list(self.only) if self.only is not None else None)

    def target(self, name: str) -> str | None:
        """The output class of a source label, or None when it is dropped."""
        if name in self.drop:
            return None
        out = self.rename.get(name, name)
        if out in self.drop or (self.only is not None and out not in self.only):
            return None
        return out

    def names(self, declared: list[str], seen: list[str]) -> list[str]:
        """The output classes in order: ``only`` when given, else the declared order then first appearance."""
        if self.only is not None:
            return list(self.only)
        out: list[str] = []
        for name in [*declared, *seen]:
            target = self.target(name)
            if target is not None and target not in out and (name in seen or target in seen):
                out.append(target)
        for name in seen:
            target = self.target(name)
            if target is not None and target not in out:
                out.append(target)
        return out


def parse_pairs(items: list[str]) -> dict[str, str]:
    """``["old=new", …]`` → {old: new}; raises ValueError naming the item without an ``=``."""
    pairs = {}
    for item in items:
        old, sep, new = item.partition("=")
        if not sep or not old.strip() or not new.strip():
            raise ValueError(item)
        pairs[old.strip()] = new.strip()
    return pairs


def output_names(class_map: ClassMap, declared: list[str], seen_sources: list[str]) -> list[str]:
    """The written dataset's classes in order (id 0 first): the import writes these, and the dialog shows them
    before writing. ``seen_sources``: the source classes in the order their boxes first appear."""
    seen = list(dict.fromkeys(t for name in seen_sources if (t := class_map.target(name)) is not None))
    return class_map.names(declared, seen)
