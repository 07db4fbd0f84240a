"""The worker's guards for files yolov5 runs as code (core.worker.code_guards), in one fresh interpreter after
``compat.apply`` — the way every job starts — against yolov5's own ``Model`` and ``check_dataset``.

- a model YAML whose activation, module or argument writes a marker: refused before ``eval``; once the user
  confirmed it (``trusted_model``), yolov5 does run it (the control: the refusal is what stopped it);
- a data.yaml whose val path is missing, with each ``download:`` form yolov5 runs (Python through ``exec``, a
  ``bash`` line through the shell, a zip URL fetched — here a loopback server that counts requests), and with
  one missing entry of a val list: yolov5's "Dataset not found", nothing run, nothing fetched.
"""

from __future__ import annotations

import http.server
import subprocess
import sys
import threading
from pathlib import Path

import yaml

from core.model_catalog import yolov5_package_dir

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import sys
from pathlib import Path
tmp = Path(sys.argv[1])
from core.worker import code_guards, compat
compat.apply(tmp / "cache", trusted=[tmp / "ws" / "runs"])
from yolov5.models.yolo import Model
from yolov5.utils.general import check_dataset
for model in sorted(tmp.glob("evil-*.yaml")):
    try:
        Model(str(model))
        print("model built:", model.name, flush=True)
    except code_guards.UntrustedModelError as exc:
        print("model refused:", model.name, flush=True)
for data in sorted(tmp.glob("data-*.yaml")):
    try:
        check_dataset(str(data))
        print("dataset passed:", data.name, flush=True)
    except Exception as exc:
        print("dataset refused:", data.name, str(exc)[:40], flush=True)
markers = sorted(p.name for p in tmp.glob("marker-*"))
print("markers before trust:", markers, flush=True)
code_guards.set_model_trusted(True)
try:
    Model(str(tmp / "evil-activation.yaml"))
except Exception:
    pass
print("trusted ran it:", (tmp / "marker-activation").exists(), flush=True)
"""


class _Counting(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        _Counting.hits.append(self.path)
        self.send_response(404)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def _models(tmp: Path) -> None:
    base = yaml.safe_load((yolov5_package_dir() / "models" / "yolov5n.yaml").read_text())
    for where in ("activation", "module", "argument"):
        doc = yaml.safe_load(yaml.safe_dump(base))
        code = f"__import__('pathlib').Path({str(tmp / ('marker-' + where))!r}).write_text('ran')"
        if where == "activation":
            doc["activation"] = code
        elif where == "module":
            doc["backbone"][0][2] = code
        else:
            doc["head"][-1][3].append(code)
        (tmp / f"evil-{where}.yaml").write_text(yaml.safe_dump(doc))


def _datasets(tmp: Path, port: int) -> None:
    (tmp / "images").mkdir()
    forms = {"python": f"open({str(tmp / 'marker-python')!r}, 'w').write('ran')",
             "bash": f"bash -c 'touch {tmp / 'marker-bash'}'",
             "url": f"http://127.0.0.1:{port}/dataset.zip"}
    for name, download in forms.items():
        doc = {"path": str(tmp), "train": "images", "val": "missing", "names": ["a"], "download": download}
        (tmp / f"data-{name}.yaml").write_text(yaml.safe_dump(doc))
    doc = {"path": str(tmp), "train": "images", "val": ["images", "missing"], "names": ["a"],
           "download": forms["python"].replace("marker-python", "marker-list")}
    (tmp / "data-list.yaml").write_text(yaml.safe_dump(doc))


def test_the_worker_never_evals_a_model_yaml_nor_runs_a_download(tmp_path: Path) -> None:
    server = http.server.HTTPServer(("127.0.0.1", 0), _Counting)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        _models(tmp_path)
        _datasets(tmp_path, server.server_address[1])
        result = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=ROOT, capture_output=True,
                                text=True, timeout=300)
    finally:
        server.shutdown()
        server.server_close()
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    for where in ("activation", "module", "argument"):
        assert f"model refused: evil-{where}.yaml" in out, out
    for form in ("bash", "list", "python", "url"):
        assert f"dataset refused: data-{form}.yaml Dataset not found" in out, out
    assert "markers before trust: []" in out, out
    assert _Counting.hits == []  # the URL was never fetched
    assert "trusted ran it: True" in out  # the file really would act: the guard is what stopped it


def test_train_no_check_through_a_real_worker_never_runs_the_download(tmp_path: Path, capsys) -> None:
    """``yolostudio train --no-check`` on a dataset whose val list has one missing entry: the real worker
    reaches yolov5's ``check_dataset``, which says "Dataset not found" instead of running ``download:``."""
    from cli.main import main
    from tests.core.test_dataset_validate import build

    marker = tmp_path / "EXECUTED"
    root = tmp_path / "data"
    data = build(root, yaml_text=f"path: {root}\ntrain: images/train\nval: [images/val, images/missing]\n"
                                 f"names: [a, b]\ndownload: \"open({str(marker)!r}, 'w').write('ran')\"\n")
    code = main(["--workspace", str(tmp_path / "ws"), "train", str(data), "--model", "yolov5n.yaml",
                 "--device", "cpu", "--epochs", "1", "--imgsz", "64", "--batch", "2", "--workers", "0",
                 "--no-check", "--json"])
    out = capsys.readouterr().out
    assert code != 0 and '"type": "error"' in out.replace('":"', '": "')
    assert "Dataset not found" in out and "never runs or fetches it" in out, out[-3000:]
    assert not marker.exists()
