"""The fault campaign's import section (issue 37): ``yolostudio dataset import`` against sources an attacker
with local files, or a tool's odd export, would hand it. Every figure but the cases tried must be 0:

- values no tool writes (``tests/fixtures/import_faults.py``): exit 2, the file and the value named;
- a ``nan`` corner: written without it; no convertible image, ``--out`` under a file: exit 2 in words;
- ``--out`` inside the source spelled ``sibling/../SRC/new`` or through a link: refused, the source unchanged;
- links out of the source (``--link``, ``--copy``): the outside file's bytes nowhere in the output;
- a JPEG named ``.png`` with bytes after its end: copied, not hard-linked;
- LabelMe ``imagePath: notes.txt`` with ``imageData``: written with its decoded suffix; an undecodable one
  named by its JSON; a class name with U+0085: a data.yaml that reads back;
- an import SIGTERMed while writing leaves no ``.NAME.importing-PID``; one SIGKILLed leaves none after the next.

Registered in ``bench/faults.py`` as the ``import`` section.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run alone: ``python bench/faults_import.py``

from tests.fixtures.import_faults import CASES, voc_with  # noqa: E402
from tests.import_samples import labelme_doc, picture, rect_shape, write_voc  # noqa: E402

Measured = Callable[..., dict[str, Any]]
Check = Callable[[dict[str, Any]], bool]


def _plain_cases(work: Path) -> list[tuple[str, list[str], Check]]:
    """(name, import arguments, what the result must show) for the cases one CLI run judges."""
    cases: list[tuple[str, list[str], Check]] = []
    for name, (plant, value) in sorted(CASES.items()):
        src = work / name.replace(" ", "-") / "src"
        src.mkdir(parents=True)
        bad = plant(src)
        cases.append((name, [str(src), "--out", str(src.parent / "out")],
                      lambda r, bad=bad, value=value: r["rc"] == 2 and str(bad) in r["err"] and value in r["err"]))
    src = work / "nan" / "src"
    voc_with(src, **{"<xmin>4</xmin>": "<xmin>nan</xmin>"})
    write_voc(src, "b.jpg", (64, 48), [("bolt", 4, 4, 30, 30)])
    cases.append(("nan corner", [str(src), "--out", str(src.parent / "out")], lambda r, o=src.parent / "out": r["rc"] == 0
                  and not any("nan" in p.read_text() for p in o.glob("labels/*/*.txt"))))
    src = work / "empty" / "src"
    src.mkdir(parents=True)
    (src / "a.jpg").write_bytes(b"not a picture")
    (src / "a.xml").write_text("<annotation><filename>a.jpg</filename></annotation>")
    cases.append(("no convertible image", [str(src), "--out", str(src.parent / "out")],
                  lambda r: r["rc"] == 2 and "Errno" not in r["err"] and "no image could be converted" in r["err"]))
    src = work / "under-file" / "src"
    voc_with(src)
    (src.parent / "afile").write_text("x")
    cases.append(("out under a file", [str(src), "--out", str(src.parent / "afile" / "new")],
                  lambda r: r["rc"] == 2 and "Errno" not in r["err"]))
    for spelling in ("dotdot", "link"):
        src = work / f"inside-{spelling}" / "src"
        voc_with(src)
        (src.parent / "sibling").mkdir()
        (src.parent / "to_src").symlink_to(src)
        out = src.parent / ("sibling/../src/new" if spelling == "dotdot" else "to_src/new")
        cases.append((f"out inside the source ({spelling})", [str(src), "--out", str(out)],
                      lambda r, src=src: r["rc"] == 2 and sorted(p.name for p in src.iterdir()) == ["a.jpg", "a.xml"]))
    for mode in ("--link", "--copy"):
        src = work / f"link-out{mode}" / "src"
        voc_with(src)
        secret = src.parent / "private" / "secret.jpg"
        picture(secret, (64, 48), [], seed=9)
        (src / "b.jpg").symlink_to(secret)
        (src / "folder_link").symlink_to(secret.parent)
        out = src.parent / "out"
        cases.append((f"link out of the source ({mode})", [str(src), "--out", str(out), mode],
                      lambda r, out=out, data=secret.read_bytes(): r["rc"] == 0 and out.is_dir()
                      and all(p.read_bytes() != data for p in out.rglob("*") if p.is_file())))
    src = work / "jpeg-named-png" / "src"
    write_voc(src, "a.png", (64, 48), [("bolt", 4, 4, 30, 30)])
    (src / "a.png").write_bytes((src / "a.png").read_bytes() + b"trailing")
    out = src.parent / "out"
    cases.append(("JPEG named .png", [str(src), "--out", str(out), "--split", "1,0"],
                  lambda r, src=src, out=out: r["rc"] == 0 and not os.path.samefile(src / "a.png",
                                                                                    out / "images/train/a.png")))
    for name, label, data in (("embedded notes.txt", "bolt", picture(None, (64, 48), [], seed=4, fmt="PNG")),
                              ("undecodable embedded", "bolt", b"not an image"),
                              ("C1 class name", "bo\u0085lt\u0080", picture(None, (64, 48), [], seed=6))):
        src = work / name.replace(" ", "-") / "src"
        src.mkdir(parents=True)
        (src / "notes.txt").write_text("notes")
        (src / "a.json").write_text(json.dumps(labelme_doc("notes.txt", (64, 48), [rect_shape(label, 4, 4, 30, 30)],
                                                           data)))
        if name == "undecodable embedded":
            write_voc(src, "ok.jpg", (64, 48), [])
        out = src.parent / "out"
        checks: dict[str, Check] = {
            "embedded notes.txt": lambda r, out=out: r["rc"] == 0 and (out / "images/train/notes.png").is_file(),
            "undecodable embedded": lambda r: "BytesIO" not in r["out"] + r["err"] and "a.json" in r["out"],
            "C1 class name": lambda r, out=out: r["rc"] == 0 and yaml.safe_load(
                (out / "data.yaml").read_text(encoding="utf-8"))["names"] == ["bo\u0085lt\u0080"]}
        cases.append((name, [str(src), "--out", str(out), "--split", "1,0", "--format", "labelme"], checks[name]))
    return cases


def _killed_while_writing(work: Path, env: dict[str, str], measured: Measured, cli: Callable[..., list[str]],
                          how: signal.Signals) -> bool:
    """Signal an import once its temporary folder exists. SIGTERM: the import removes it itself; SIGKILL: the
    next import into that parent removes it."""
    base = work / f"killed-{how.name}"
    src = base / "src"
    for i in range(200):
        write_voc(src, f"{i:03d}.jpg", (320, 240), [("bolt", 4, 4, 30, 30)])
    proc = subprocess.Popen(cli("dataset", "import", str(src), "--out", str(base / "out"), "--copy"),
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and not list(base.glob(".out.importing-*")):
        time.sleep(0.01)
    if proc.poll() is None:
        os.kill(proc.pid, how)
    proc.wait()
    if how == signal.SIGTERM:
        return not list(base.glob(".*.importing-*"))
    if not list(base.glob(".out.importing-*")):  # finished before the folder was seen: plant one
        dead = subprocess.Popen([sys.executable, "-c", "pass"])
        dead.wait()
        (base / f".out.importing-{dead.pid}" / "images").mkdir(parents=True)
    measured(cli("dataset", "import", str(src), "--out", str(base / "next")), env, timeout=300)
    return not list(base.glob(".*.importing-*"))


def campaign(work: Path, env: dict[str, str], measured: Measured, cli: Callable[..., list[str]]) -> dict[str, Any]:
    counts: dict[str, Any] = {"import cases": 0, "import hangs": 0, "import tracebacks": 0, "import misses": 0}
    root = work / "import"
    for name, args, ok in _plain_cases(root):
        result = measured(cli("dataset", "import", *args, *(["--json"] if name == "undecodable embedded" else [])),
                          env, timeout=120)
        counts["import cases"] += 1
        counts["import hangs"] += result["hung"]
        counts["import tracebacks"] += result["traceback"]
        if result["hung"] or result["traceback"] or not ok(result):
            counts["import misses"] += 1
            print(f"  import {name}: rc {result['rc']} hung={result['hung']}: {(result['err'] or result['out'])[-300:]}")
    for how in (signal.SIGTERM, signal.SIGKILL):
        counts["import cases"] += 1
        if not _killed_while_writing(root, env, measured, cli, how):
            counts["import misses"] += 1
            print(f"  import {how.name} while writing: a .NAME.importing-PID folder was left")
    return counts


def main() -> None:
    """The section alone: ``python bench/faults_import.py`` (the full campaign trains first)."""
    import tempfile  # noqa: PLC0415
    import shutil  # noqa: PLC0415

    from bench.fault_run import cli, measured  # noqa: PLC0415
    from core.job.launch import worker_env  # noqa: PLC0415

    work = Path(tempfile.mkdtemp(prefix="yolostudio-faults-import-"))
    env = worker_env()
    env.update(YOLOSTUDIO_WORKSPACE=str(work / "ws"), YOLOSTUDIO_CONFIG_DIR=str(work / "config"), HOME=str(work / "home"))
    try:
        counts = campaign(work, env, measured, cli)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("[import] " + ", ".join(f"{k}: {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
