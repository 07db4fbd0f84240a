"""Every "what yolov5 does" sentence of the dataset check, held to yolov5 7.0.14's own code.

Each case is one file the validator judges. The test reads the finding the validator gives for it, checks the
finding states the claim (phrase and, where it quotes one, yolov5's message), and then runs yolov5's own
``verify_image_label`` on the same files — in a fresh interpreter set up like the training worker
(``core.job.launch.worker_env``: UTF-8 mode; ``compat.apply``) — and asserts yolov5 really does it:

- ``drops``: the image is rejected as corrupt (``nc == 1``) and yolov5's message holds the quote;
- ``keeps``: accepted, with every row (``nc == 0``);
- ``dedupes``: accepted, duplicates removed, with yolov5's "duplicate labels removed" warning;
- ``kept``: accepted, the file not rewritten — yolov5's own "corrupt JPEG restored and saved" in place is
  stopped by the worker (``core/worker/compat_jpeg.py``; ``tests/worker/test_compat_jpeg.py`` holds what yolov5
  does without it);
- ``background``: no label file: accepted as an image without objects (``nm == 1``).

The dataset-level sentences (data.yaml keys, names, paths, empty or unlabelled splits) are held the same way
to ``check_dataset`` and ``LoadImagesAndLabels``. Two claims rest on code that only runs inside training and
are cited where they are made instead (``validate._per_image_findings``: the class-vs-nc check of train.py
and val.py's name lookup).
"""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from core.dataset.images import check_image_bytes
from core.dataset.labels import parse_label_bytes
from core.dataset.validate import validate_dataset
from core.job.launch import worker_env

ROOT = Path(__file__).resolve().parents[2]
BOX = b"0 .5 .5 .2 .2\n"
POLY = b"0 .1 .1 .4 .1 .4 .5\n"


def _png(size: tuple[int, int] = (32, 32), fmt: str = "PNG", colour: str = "gray") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, fmt)
    return buffer.getvalue()


def _jpeg() -> bytes:
    buffer = io.BytesIO()
    Image.effect_noise((64, 64), 60).convert("RGB").save(buffer, "JPEG")
    return buffer.getvalue()


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` × ``height`` (Pillow judges decompression bombs by the header)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))


def _big_png(width: int, height: int) -> bytes:
    """A real, valid PNG of ``width`` × ``height`` black pixels, compressed row by row (a few hundred kB)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    packer = zlib.compressobj(9)
    row = b"\x00" * (1 + 3 * width)
    data = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", data) + chunk(b"IEND", b""))


@dataclass(frozen=True)
class Case:
    name: str
    code: str
    kind: str  # drops / keeps / dedupes / kept / background
    phrase: str  # what the finding must say yolov5 does
    quote: str = ""  # yolov5's own message, in the finding and in yolov5's output
    label: bytes | None = BOX  # None: no label file
    image: bytes | None = None  # None: a plain 32 px PNG; b"": listed in the split but absent
    suffix: str = ".png"


JPEG = _jpeg()
CASES = [
    # label files: verify_image_label's shape and value checks, in its order
    Case("bom", "label-encoding", "drops", "drops the image as corrupt", "could not convert string to float",
         b"\xef\xbb\xbf" + BOX),
    Case("not-utf8", "label-encoding", "drops", "drops the image as corrupt", "'utf-8' codec can't decode byte",
         b"0 .5 .5 .2 .2 \xff\n"),
    Case("blank-row", "label-columns", "drops", "drops the whole image as corrupt", "inhomogeneous shape",
         BOX + b"  \n1 .5 .5 .1 .1\n"),
    Case("blank-row-polygons", "label-columns", "drops", "drops the whole image as corrupt",
         "list index out of range", POLY + b"  \n1 .5 .5 .1 .1\n"),
    Case("four-columns", "label-columns", "drops", "drops the image as corrupt",
         "labels require 5 columns, 4 columns detected", b"0 .5 .5 .1\n1 .5 .5 .1\n"),
    Case("six-columns", "label-columns", "drops", "drops the image as corrupt",
         "labels require 5 columns, 6 columns detected", b"0 .5 .5 .1 .1 .1\n"),
    Case("ragged-columns", "label-columns", "drops", "drops the image as corrupt", "inhomogeneous shape",
         b"0 .5 .5 .1\n1 .5 .5 .1 .1\n"),
    Case("polygon-odd", "label-columns", "drops", "drops the image as corrupt",
         "cannot reshape array of size 7 into shape (2)", b"0 .1 .1 .4 .1 .4 .5 .3\n"),
    Case("polygon-class-only", "label-columns", "drops", "drops the image as corrupt",
         "zero-size array to reduction operation", POLY + b"1\n"),
    Case("box-among-polygons", "label-mixed-formats", "keeps", "reads every row of this file as a polygon",
         label=POLY + b"1 .5 .5 .2 .2\n"),
    Case("not-a-number", "label-value", "drops", "drops the image as corrupt", "could not convert string to float",
         b"0 .5 abc .2 .2\n"),
    Case("nan", "label-nan", "drops", "drops the image as corrupt", "negative label values []",
         b"0 nan .5 .2 .2\n"),
    Case("infinity", "label-nan", "drops", "drops the image as corrupt",
         "non-normalized or out of bounds coordinates [", b"0 inf .5 .2 .2\n"),
    Case("minus-infinity", "label-nan", "drops", "drops the image as corrupt", "negative label values [",
         b"0 -inf .5 .2 .2\n"),
    Case("infinite-class", "label-nan", "keeps", "yolov5's scan keeps the row", label=b"inf .5 .5 .2 .2\n"),
    Case("negative-class", "label-class-range", "drops", "drops the image as corrupt", "negative label values [",
         b"-1 .5 .5 .2 .2\n"),
    Case("fractional-class", "label-class-range", "keeps", "yolov5 accepts the row", label=b"1.5 .5 .5 .2 .2\n"),
    Case("negative-width", "label-nonpositive-size", "drops", "drops the image as corrupt",
         "negative label values [", b"0 .5 .5 -.1 .2\n"),
    Case("negative-height-and-x-over-1", "label-nonpositive-size", "drops", "drops the image as corrupt",
         "negative label values [", b"0 1.2 .5 .1 -.2\n"),
    Case("zero-width", "label-nonpositive-size", "keeps", "yolov5 keeps it", label=b"0 .5 .5 0 .2\n"),
    Case("negative-x", "label-not-normalized", "drops", "drops the image as corrupt", "negative label values [",
         b"0 -.1 .5 .2 .2\n"),
    Case("pixels", "label-not-normalized", "drops", "drops the image as corrupt",
         "non-normalized or out of bounds coordinates [", b"0 320 240 50 60\n"),
    Case("slightly-over", "label-not-normalized", "drops", "drops the image as corrupt",
         "non-normalized or out of bounds coordinates [", b"0 1.01 .5 .2 .2\n"),
    Case("duplicate", "label-duplicate-row", "dedupes", "removes duplicates with a warning", label=BOX + BOX),
    Case("duplicate-as-float32", "label-duplicate-row", "dedupes", "removes duplicates with a warning",
         label=BOX + b"0 .50000001 .5 .2 .2\n"),
    Case("polygons-same-box", "label-duplicate-row", "dedupes", "removes duplicates with a warning",
         label=POLY + b"0 .1 .5 .4 .1 .1 .1 .4 .5\n"),
    Case("no-label", "label-missing", "background", "as a background image", label=None),
    Case("listed-but-missing", "image-missing", "drops", "counts it as corrupt", "No such file", image=b""),
    # images: Pillow's verify, then size, then format, then the JPEG end marker
    Case("garbage", "image-corrupt", "drops", "yolov5 drops it as corrupt", image=b"not an image at all"),
    Case("tiny", "image-too-small", "drops", "as corrupt", "image size (8, 8) <10 pixels", image=_png((8, 8))),
    Case("gif-named-jpg", "image-corrupt", "drops", "drops it as corrupt", "invalid image format",
         image=_png(fmt="GIF"), suffix=".jpg"),
    Case("truncated-jpeg", "image-corrupt", "drops", "drops the image as corrupt", "image file is truncated",
         image=JPEG[:-300], suffix=".jpg"),  # cut inside the scan: only the end marker cut decodes ~4% of the time
    Case("jpeg-trailing-bytes", "image-corrupt", "kept", "keeps your file as it is",
         "corrupt JPEG restored and saved", image=JPEG + b"camera trailer", suffix=".jpg"),
    Case("bomb", "image-too-large", "drops", "yolov5 drops it as corrupt", image=_png_header_only(20000, 20000)),
    Case("large", "image-too-large", "keeps", "yolov5 decodes it at full size", image=_big_png(8000, 5200)),
]

@dataclass(frozen=True)
class DatasetCase:
    """A data.yaml (``{root}`` is the case's folder) and tree; ``call`` is the yolov5 function that decides:
    ``check`` = ``check_dataset`` (what training does first), ``train``/``val`` = building that split's
    ``LoadImagesAndLabels`` (augment=True for train, as training does). ``expect`` is a quote from the
    exception yolov5 raises, or ``key=value`` facts of the dict ``check_dataset`` returns (repr'd)."""

    name: str
    code: str
    phrase: str
    yaml: str
    call: str
    expect: str
    tree: tuple[str, ...] = ("images/a.png", "labels/a.txt")  # files to create (images real, labels a box)


STD = "path: {root}\ntrain: images\nval: images\n"
DATASET_CASES = [
    DatasetCase("missing-val-key", "yaml-missing-key", "field missing", "path: {root}\ntrain: images\nnames: [a]\n",
                "check", "data.yaml 'val:' field missing"),
    DatasetCase("names-keys-not-ids", "names-invalid", "names keys must be integers", STD + "names: {{a: x}}\n",
                "check", "names keys must be integers"),
    DatasetCase("names-with-gap", "names-invalid", "yolov5 sets nc to the number of names (2)",
                STD + "names: {{0: a, 2: b}}\n", "check", "nc=2"),
    DatasetCase("nc-disagrees", "names-nc-mismatch", "yolov5 ignores nc and uses the 2 names",
                STD + "nc: 3\nnames: [a, b]\n", "check", "nc=2"),
    DatasetCase("duplicate-key", "yaml-duplicate-key", "keeps the last one",
                STD + "names: [a]\nnames: [b]\n", "check", "names={0: 'b'}"),
    DatasetCase("latin1-name", "yaml-encoding", "silently drops such bytes", STD + "names: [caf\xe9]\n", "check",
                "names={0: 'caf'}"),
    DatasetCase("relative-path", "path-relative", "against its own install folder",
                "train: images\nval: {root}/images\nnames: [a]\n", "check", "train_under_yolov5=True"),
    DatasetCase("val-missing", "split-path-missing", "'Dataset not found'", "path: {root}\ntrain: images\n"
                "val: nowhere\nnames: [a]\n", "check", "Dataset not found"),
    DatasetCase("train-missing", "split-path-missing", "'Error loading data from … does not exist'",
                "path: {root}\ntrain: nowhere\nval: images\nnames: [a]\n", "train", "does not exist"),
    DatasetCase("train-empty", "split-empty", "'No images found'", "path: {root}\ntrain: empty\nval: images\n"
                "names: [a]\n", "train", "No images found", ("images/a.png", "labels/a.txt", "empty/")),
    DatasetCase("train-no-label-files", "split-no-labels", "'No labels found", STD + "names: [a]\n", "train",
                "No labels found", ("images/a.png",)),
    DatasetCase("train-labels-empty", "split-no-labels", "'All labels empty", STD + "names: [a]\n", "train",
                "All labels empty", ("images/a.png", "labels/a.txt=")),
    DatasetCase("gif-in-folder", "image-unsupported-format", "skips this file silently", STD + "names: [a]\n",
                "train", "images=1", ("images/a.png", "labels/a.txt", "images/b.gif")),
    DatasetCase("orphan-label", "label-orphan", "yolov5 ignores it silently", STD + "names: [a]\n", "train",
                "images=1", ("images/a.png", "labels/a.txt", "labels/gone.txt")),
    # issue 21: pairing as yolov5 pairs (the subprocess starts in the repository, where images/b.png is not)
    DatasetCase("list-relative-entry", "list-line-misread", "relative to the folder training is started from",
                "path: {root}\ntrain: images\nval: list.txt\nnames: [a]\n", "val", "images=1",  # of 2 beside the list
                ("images/a.png", "labels/a.txt", "images/b.png", "labels/b.txt",
                 "list.txt=./images/a.png\nimages/b.png\n")),
    DatasetCase("list-trailing-space", "list-line-misread", "skips the line silently",
                "path: {root}\ntrain: list.txt\nval: images\nnames: [a]\n", "train", "images=1",
                ("images/a.png", "labels/a.txt", "images/b.png", "labels/b.txt",
                 "list.txt=./images/a.png \n./images/b.png\n")),
    DatasetCase("list-leading-space", "list-line-misread", "starts with a space or tab",
                "path: {root}\ntrain: list.txt\nval: images\nnames: [a]\n", "train", "images=2",
                ("images/a.png", "labels/a.txt", "images/b.png", "labels/b.txt", "images/c.png", "labels/c.txt",
                 "list.txt=./images/a.png\n ./images/b.png\n./images/c.png\n")),
    DatasetCase("label-upper-case-suffix", "label-name-case", "trains the image as a background", STD + "names: [a]\n",
                "train", "labelled=1", ("images/a.png", "labels/a.TXT", "images/b.png", "labels/b.txt")),
    DatasetCase("one-label-two-images", "label-shared", "all of them train with these boxes", STD + "names: [a]\n",
                "train", "labelled=2", ("images/a.png", "images/a.jpg", "labels/a.txt")),
    DatasetCase("label-of-unlisted-image", "label-unlisted", "neither trains on it",
                "path: {root}\ntrain: list.txt\nval: list.txt\nnames: [a]\n", "train", "images=1",
                ("images/a.png", "labels/a.txt", "images/b.png", "labels/b.txt", "list.txt=./images/a.png\n")),
    DatasetCase("dangling-image-link", "image-missing", "cannot open it and trains without it", STD + "names: [a]\n",
                "train", "images=1", ("images/a.png", "labels/a.txt", "images/gone.png@nowhere.png")),
    DatasetCase("fifo-label", "label-not-a-file", "trains the image as a background", STD + "names: [a]\n",
                "train", "labelled=1", ("images/a.png", "labels/a.txt!fifo", "images/b.png", "labels/b.txt")),
    DatasetCase("label-linked-to-dev-zero", "label-not-a-file", "trains the image as a background",
                STD + "names: [a]\n", "train", "labelled=1",
                ("images/a.png", "labels/a.txt@/dev/zero", "images/b.png", "labels/b.txt")),
    DatasetCase("linked-split-folder", "", "", "path: {root}\ntrain: view\nval: view\nnames: [a]\n", "train",
                "labelled=1", ("real/images/a.png", "real/labels/a.txt", "view@real/images")),  # labels beside the target
    DatasetCase("linked-list-file", "", "", "path: {root}\ntrain: view.txt\nval: view.txt\nnames: [a]\n", "train",
                "labelled=1", ("real/images/a.png", "real/labels/a.txt", "real/list.txt=./images/a.png\n",
                               "view.txt@real/list.txt")),  # './' is the target's folder
]
#: Cases whose statistics (images, labelled) must equal what yolov5's dataset holds.
COUNTED = ("list-relative-entry", "list-trailing-space", "list-leading-space", "label-upper-case-suffix", "one-label-two-images",
           "label-of-unlisted-image", "dangling-image-link", "fifo-label", "label-linked-to-dev-zero",
           "linked-split-folder", "linked-list-file")


def _make_tree(root: Path, case: DatasetCase) -> Path:
    for entry in case.tree:
        path, _, text = entry.partition("=")
        path, _, link = path.partition("@")  # ``x@target``: a symlink to target (relative to the case's folder)
        path, _, special = path.partition("!")  # ``x!fifo``: a named pipe
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if link:
            target.symlink_to(root / link)
        elif special:
            os.mkfifo(target)
        elif path.endswith("/"):
            target.mkdir(exist_ok=True)
        elif path.endswith((".png", ".gif", ".jpg")):
            fmt = {".gif": "GIF", ".jpg": "JPEG"}.get(Path(path).suffix, "PNG")
            target.write_bytes(_png(fmt=fmt, colour="white" if fmt == "JPEG" else "gray"))
        else:
            target.write_bytes(text.encode() if "=" in entry else BOX)
    yaml_file = root / "data.yaml"
    yaml_file.write_bytes(case.yaml.format(root=root).encode("latin-1"))
    return yaml_file


#: Run in the worker's environment: yolov5's verdict per case, as JSON.
SCRIPT = r'''
import json, sys
from pathlib import Path
tmp = Path(sys.argv[1])
from core.worker import compat
compat.apply(tmp / "cache", trusted=[])
from yolov5.utils.dataloaders import verify_image_label
out = {}
for case in json.loads((tmp / "cases.json").read_text()):
    before = Path(case["image"]).read_bytes() if Path(case["image"]).exists() else b""
    _, lb, _, _, nm, nf, ne, nc, msg, = verify_image_label((case["image"], case["label"], ""))
    after = Path(case["image"]).read_bytes() if Path(case["image"]).exists() else b""
    out[case["name"]] = {"nm": nm, "nc": nc, "msg": msg, "rows": None if lb is None else len(lb),
                         "rewritten": before != after}
from yolov5.utils.general import ROOT, check_dataset
from yolov5.utils.dataloaders import LoadImagesAndLabels
for case in json.loads((tmp / "datasets.json").read_text()):
    try:
        if case["call"] == "check":
            data = check_dataset(case["yaml"], autodownload=False)
            facts = {"nc": data["nc"], "names": data["names"],
                     "train_under_yolov5": str(data["train"]).startswith(str(ROOT))}
            out[case["name"]] = {"facts": {k: repr(v) if k == "names" else v for k, v in facts.items()}}
        else:
            import yaml
            split = yaml.safe_load(open(case["yaml"], encoding="latin-1"))[case["call"]]
            root = Path(case["yaml"]).parent
            dataset = LoadImagesAndLabels(str((root / split).resolve()), img_size=64, batch_size=1,
                                          augment=case["call"] == "train", workers=1)  # resolved: check_dataset's rule
            out[case["name"]] = {"facts": {"images": len(dataset.im_files),
                                           "labelled": sum(len(lb) > 0 for lb in dataset.labels)}}
    except Exception as exc:
        out[case["name"]] = {"error": str(exc)}
print("CLAIMS " + json.dumps(out))
'''


@pytest.fixture(scope="module")
def yolov5_verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    tmp = tmp_path_factory.mktemp("claims")
    listed = []
    for case in CASES:
        folder = tmp / case.name
        (folder / "images").mkdir(parents=True)
        (folder / "labels").mkdir()
        image = folder / "images" / f"a{case.suffix}"
        if case.image != b"":
            image.write_bytes(case.image if case.image is not None else _png())
        label = folder / "labels" / "a.txt"
        if case.label is not None:
            label.write_bytes(case.label)
        listed.append({"name": case.name, "image": str(image), "label": str(label)})
    (tmp / "cases.json").write_text(json.dumps(listed))
    datasets = [{"name": c.name, "call": c.call, "yaml": str(_make_tree(tmp / "ds" / c.name, c))}
                for c in DATASET_CASES]
    (tmp / "datasets.json").write_text(json.dumps(datasets))
    env = worker_env()
    env["HOME"] = str(tmp / "home")
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp)], cwd=ROOT, env=env, capture_output=True,
                         timeout=600)
    stdout = out.stdout.decode("utf-8", errors="replace")
    assert out.returncode == 0, out.stderr.decode("utf-8", errors="replace")[-3000:]
    [line] = [line for line in stdout.splitlines() if line.startswith("CLAIMS ")]
    return json.loads(line[len("CLAIMS "):])


def _our_finding(case: Case, tmp_path: Path):
    if case.label is None or case.image == b"":  # dataset-level: check a small dataset holding the case
        return _dataset_finding(case, tmp_path)
    if case.image is not None:
        findings = check_image_bytes(case.image, "a" + case.suffix).findings
    else:
        findings = parse_label_bytes(case.label, "a.txt").findings
    matching = [f for f in findings if f.code == case.code]
    assert matching, f"{case.name}: the validator gives {[f.code for f in findings]}, not {case.code}"
    return matching[0]


def _dataset_finding(case: Case, root: Path):
    (root / "images").mkdir()
    (root / "labels").mkdir()
    for name, colour in (("a", "gray"), ("b", "white")):
        (root / "images" / f"{name}.png").write_bytes(_png(colour=colour))
    (root / "labels" / "b.txt").write_bytes(BOX)
    if case.label is not None:
        (root / "labels" / "a.txt").write_bytes(case.label)
    entries = "./images/a.png\n./images/b.png\n" + ("./images/gone.png\n" if case.image == b"" else "")
    (root / "list.txt").write_text(entries)
    (root / "data.yaml").write_text(f"path: {root}\ntrain: list.txt\nval: list.txt\nnames: [a]\n")
    return next(f for f in validate_dataset(root / "data.yaml").findings if f.code == case.code)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_finding_states_what_yolov5_does(case: Case, yolov5_verdicts: dict[str, dict], tmp_path: Path):
    found = _our_finding(case, tmp_path)
    assert case.phrase in found.message, found.message
    assert case.quote in found.message, found.message
    if case.kind == "drops":
        assert found.severity == "error"

    yolov5 = yolov5_verdicts[case.name]
    rows = None if case.label is None else len([ln for ln in case.label.splitlines() if ln.strip()])
    if case.kind == "drops":
        assert yolov5["nc"] == 1 and case.quote in yolov5["msg"], yolov5
    elif case.kind == "keeps":
        assert yolov5["nc"] == 0 and yolov5["rows"] == rows and not yolov5["msg"], yolov5
    elif case.kind == "dedupes":
        assert yolov5["nc"] == 0 and yolov5["rows"] == rows - 1 and "duplicate labels removed" in yolov5["msg"]
    elif case.kind == "kept":
        assert yolov5["nc"] == 0 and not yolov5["rewritten"] and "your file is kept" in yolov5["msg"], yolov5
    elif case.kind == "background":
        assert yolov5["nm"] == 1 and yolov5["nc"] == 0 and yolov5["rows"] == 0, yolov5
    else:
        raise AssertionError(case.kind)


@pytest.mark.parametrize("case", DATASET_CASES, ids=[c.name for c in DATASET_CASES])
def test_the_dataset_finding_states_what_yolov5_does(case: DatasetCase, yolov5_verdicts: dict[str, dict],
                                                       tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    yaml_file = _make_tree(tmp_path, case)
    monkeypatch.chdir(ROOT)  # where the yolov5 subprocess starts: relative list lines are read from there
    report = validate_dataset(yaml_file)
    found = [f for f in report.findings if f.code == case.code]
    assert not case.code or any(case.phrase in f.message for f in found), [f.message for f in report.findings]
    verdict = yolov5_verdicts[case.name]
    if case.name in COUNTED:  # the statistics count what yolov5 will find
        counted = report.stats["splits"][case.call]
        assert (counted["images"], counted["labelled"]) == (verdict["facts"]["images"],
                                                            verdict["facts"]["labelled"]), (counted, verdict)
    if "=" in case.expect:  # yolov5 went on, with these facts
        key, value = case.expect.split("=", 1)
        assert "facts" in verdict, verdict
        assert str(verdict["facts"][key]) == value, verdict
    else:  # yolov5 stopped with this message
        assert case.expect in verdict.get("error", ""), verdict
