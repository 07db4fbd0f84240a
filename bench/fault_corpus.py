"""The malformed inputs of the fault campaign (``bench/faults.py``): data.yaml files, facts files, run folders.

Each builder writes its cases into a folder and returns ``(name, path)`` pairs. They are the cases the
issue-13 campaign found, plus their neighbours: alias and merge-key bombs, huge and deep files, pipes,
impossible class counts; facts files that are deep, oversized, a pipe or hold versions that are not
versions; run folders with torn, mistyped or missing files.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from core.job.protocol import encode, make_event

GOOD_YAML = "train: images\nval: images\nnames: [a]\n"


def data_yaml_corpus(folder: Path, images: Path) -> list[tuple[str, Path]]:
    """Malformed data.yaml files (every one must be refused in words, quickly, in bounded memory)."""
    folder.mkdir(parents=True, exist_ok=True)
    head = f"path: {images.parent}\n"
    texts: dict[str, str] = {
        "laughs-names": 'a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]\n'
        + "".join(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 10))
        + head + "train: images\nval: images\nnames: *a9\n",
        "laughs-train": 'a0: &a0 ["images","images","images","images","images","images","images","images"]\n'
        + "".join(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 8) + "]\n" for i in range(1, 9))
        + head + "train: *a8\nval: images\nnames: [a]\n",
        "merge-bomb": "b0: &b0 {k0: 1, k1: 2}\n"
        + "".join(f"b{i}: &b{i}\n  <<: *b{i - 1}\n  " + "\n  ".join(f"z{j}: *b{i - 1}" for j in range(8)) + "\n"
                  for i in range(1, 9)) + head + GOOD_YAML.replace("names: [a]", "names: [a]"),
        "300k-names": head + "train: images\nval: images\nnames: [" + ",".join(f"c{i}" for i in range(300_000)) + "]\n",
        "deep-flow": head + GOOD_YAML + "x: " + "[" * 50_000 + "]" * 50_000 + "\n",
        "deep-block": head + GOOD_YAML + "x:\n" + "".join(" " * i + "-\n" for i in range(1, 3000)),
        "deep-map": head + GOOD_YAML + "".join(" " * i + f"k{i}:\n" for i in range(0, 3000)),
        "nc-negative": head + "train: images\nval: images\nnc: -3\nnames: [a]\n",
        "nc-huge": head + "train: images\nval: images\nnc: 1e29\nnames: [a]\n",
        "nc-huge-float": head + "train: images\nval: images\nnc: 1.0e29\nnames: [a]\n",
        "nc-only-negative": head + "train: images\nval: images\nnc: -3\n",
        "nc-string": head + "train: images\nval: images\nnc: many\nnames: [a]\n",
        "names-int": head + "train: images\nval: images\nnames: 7\n",
        "names-map-gaps": head + "train: images\nval: images\nnames: {0: a, 5: b}\n",
        "names-map-str-keys": head + "train: images\nval: images\nnames: {a: b}\n",
        "not-mapping": "- just\n- a\n- list\n",
        "empty": "",
        "tabs": head + "train: images\n\tval: images\nnames: [a]\n",
        "binary": "\x00\x01\x02\xff",
        "train-list-of-ints": head + "train: [1, 2]\nval: images\nnames: [a]\n",
        "train-root": "path: /\ntrain: /\nval: images\nnames: [a]\n",
        "missing-val": head + "train: images\nnames: [a]\n",
        "python-tag": head + "train: !!python/object/apply:os.system ['echo pwned']\nval: images\nnames: [a]\n",
        "dup-keys": head + "train: images\ntrain: images\nval: images\nnames: [a]\n",
        "bad-utf8-bom": "\ufeff" + head + GOOD_YAML + "names: [\udcff]\n",
    }
    cases: list[tuple[str, Path]] = []
    for name, text in texts.items():
        path = folder / f"{name}.yaml"
        path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
        cases.append((name, path))
    big = folder / "60mb.yaml"
    with open(big, "wb") as handle:
        handle.write((head + GOOD_YAML).encode() + b"#")
        handle.write(b"x" * (60 << 20))
    cases.append(("60mb", big))
    fifo = folder / "fifo.yaml"
    os.mkfifo(fifo)
    cases.append(("fifo", fifo))
    cases.append(("folder", _mkdir(folder / "folder.yaml")))
    loop_data = folder / "loopdata"
    (loop_data / "images").mkdir(parents=True)
    (loop_data / "images" / "loop").symlink_to(loop_data / "images", target_is_directory=True)
    os.mkfifo(loop_data / "images" / "pipe.jpg")
    path = folder / "symlink-loop-and-pipe.yaml"
    path.write_text(f"path: {loop_data}\ntrain: images\nval: images\nnames: [a]\n")
    cases.append(("symlink-loop-and-pipe", path))
    return cases


def facts_corpus(folder: Path, sample: Path) -> list[tuple[str, Path]]:
    """Malformed facts files for ``doctor --facts`` (each: exit 2 with 'this facts file is not valid')."""
    folder.mkdir(parents=True, exist_ok=True)
    good = json.loads(sample.read_text(encoding="utf-8"))
    cases: list[tuple[str, Path]] = []

    def put(name: str, text: str | bytes) -> None:
        path = folder / f"{name}.json"
        path.write_bytes(text.encode() if isinstance(text, str) else text)
        cases.append((name, path))

    put("deep-200k", "[" * 200_000 + "]" * 200_000)
    put("deep-object", '{"a":' * 100_000 + "1" + "}" * 100_000)
    for value in ("", "abc", "...", "x.y.z"):
        changed = json.loads(json.dumps(good))
        changed["system"]["python_version"] = value
        put(f"python-version-{value or 'empty'}", json.dumps(changed))
    changed = json.loads(json.dumps(good))
    changed["torch"] = {"version": "not.a.version", "cuda_version": "abc"} if isinstance(changed.get("torch"), dict) \
        else changed.get("torch")
    put("torch-versions", json.dumps(changed))
    put("not-json", "{not json")
    put("a-list", "[1, 2, 3]")
    put("binary", b"\xff\xfe\x00garbage")
    put("huge", b'{"pad": "' + b"x" * (20 << 20) + b'"}')
    fifo = folder / "fifo.json"
    os.mkfifo(fifo)
    cases.append(("fifo", fifo))
    cases.append(("folder", _mkdir(folder / "folder.json")))
    return cases


def damaged_runs(workspace: Path, template: Path) -> list[str]:
    """Run folders (copies of ``template``'s config) with one damaged file each; returns their names."""
    runs = workspace / "runs"
    config = json.loads((template / "config.json").read_text(encoding="utf-8"))
    start = encode(make_event("stage", stage="starting", pid=os.getpid(), create_time=1.0, t=1.0))
    damage: dict[str, dict[str, str | bytes | None]] = {
        "epoch-null": {"events.jsonl": start + '{"v":1,"type":"epoch_end","t":2,"epoch":null,"epochs":3}\n'},
        "epoch-abc": {"events.jsonl": start + '{"v":1,"type":"epoch_end","t":2,"epoch":"abc","epochs":3}\n'},
        "epoch-1e400": {"events.jsonl": start + '{"v":1,"type":"epoch_end","t":2,"epoch":1e400,"epochs":3}\n'},
        "pid-negative": {"events.jsonl": '{"v":1,"type":"stage","t":1,"stage":"starting","pid":-7}\n'},
        "pid-text": {"events.jsonl": '{"v":1,"type":"stage","t":1,"stage":"starting","pid":"abc"}\n'},
        "pid-one": {"events.jsonl": encode(make_event("stage", stage="starting", pid=1, create_time=None, t=1.0))},
        "efficiency-list": {"events.jsonl": start + '{"v":1,"type":"done","t":3,"status":"completed",'
                                                    '"efficiency":[1,2]}\n'},
        "torn-tail": {"events.jsonl": start + '{"v":1,"type":"epoch_e'},
        "glued": {"events.jsonl": start + '{"v":1,"type":"ba' + encode(make_event("done", status="stopped"))},
        "config-list": {"config.json": "[1, 2]"},
        "config-invalid": {"config.json": "{not json"},
        "config-spec-number": {"config.json": '{"spec": 5}'},
        "results-text": {"results.csv": "epoch, metrics/mAP_0.5\nabc, x\n1e400, nan\n"},
        "events-folder": {"events.jsonl": None},
        "binary-events": {"events.jsonl": b"\xff\xfe\x00\x01" * 100},
    }
    names = []
    for name, files in damage.items():
        folder = runs / f"bad-{name}"
        folder.mkdir(parents=True, exist_ok=True)
        spec = dict(config["spec"], run_dir=str(folder))
        (folder / "config.json").write_text(json.dumps(dict(config, spec=spec)), encoding="utf-8")
        for file, content in files.items():
            target = folder / file
            if content is None:
                target.mkdir(exist_ok=True)
            else:
                target.write_bytes(content.encode() if isinstance(content, str) else content)
        names.append(folder.name)
    return names


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path
