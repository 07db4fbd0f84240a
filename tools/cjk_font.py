"""Build the bundled CJK font: a subset of Noto Sans CJK SC (SIL OFL 1.1), so Chinese renders everywhere.

A machine with no CJK font (a fresh Linux install, a container, a remote desktop) would draw every
Chinese label as boxes. The app ships a subset instead of the 19 MB collection: the 3,755 characters of
GB 2312 level 1 (the common ones, for class names and paths a user types), every character of the zh_CN
catalogues, CJK punctuation and full-width forms. ``python -m tools.i18n update`` runs this after the
catalogues change; the source is the system's ``fonts-noto-cjk`` (``--source`` for another copy).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
FACE = "Noto Sans CJK SC"
OUTPUT = ROOT / "resources" / "fonts" / "NotoSansCJKsc-subset.otf"


def gb2312_level1() -> str:
    chars = []
    for high in range(0xB0, 0xD8):
        for low in range(0xA1, 0xFF):
            try:
                chars.append(bytes([high, low]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return "".join(chars)


def catalogue_chars() -> str:
    return "".join(path.read_text(encoding="utf-8") for path in sorted((ROOT / "resources" / "i18n").glob("*zh_CN.ts")))


def build(source: Path = SOURCE, output: Path = OUTPUT) -> Path:
    collection = TTCollection(str(source))
    font = next(f for f in collection.fonts if f["name"].getDebugName(1) == FACE)
    wanted = set(gb2312_level1() + catalogue_chars())
    wanted |= {chr(c) for c in range(0x20, 0x7F)} | {chr(c) for c in range(0x3000, 0x3040)}
    wanted |= {chr(c) for c in range(0xFF00, 0xFFF0)} | set("…—–·“”‘’×→←↑↓✓✗")
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes={ord(c) for c in wanted if not c.isspace() or c == " "})
    subsetter.subset(font)
    output.parent.mkdir(parents=True, exist_ok=True)
    font.recalcTimestamp = False  # the same characters give the same bytes: no churn in git
    font.save(str(output))
    return output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help="a NotoSansCJK-Regular.ttc")
    args = parser.parse_args()
    out = build(args.source)
    print(f"{out} ({out.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
