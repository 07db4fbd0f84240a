"""The bottleneck doctor on real CPU runs: a deliberately slow data path is called input-bound; cached
small images are not."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PIL import Image

from tests.e2e.conftest import Cli, by_type, train_args

pytestmark = pytest.mark.e2e


def _upscaled_copy(tiny_data: Path, target: Path, side: int) -> Path:
    """The same dataset with every image re-encoded as a large JPEG (labels are normalised: unchanged)."""
    shutil.copytree(tiny_data.parent, target)
    for image in (target / "images").rglob("*.jpg"):
        Image.open(image).convert("RGB").resize((side, side), Image.BICUBIC).save(image, quality=95)
    for cache in (target / "labels").glob("*.cache"):
        cache.unlink()
    yaml_path = target / "data.yaml"
    yaml_path.write_text(yaml_path.read_text().replace(str(tiny_data.parent), str(target)))
    return yaml_path


def _verdicts(events: list[dict]) -> list[str]:
    return [e["code"] for e in by_type(events, "diagnosis")]


def test_slow_data_path_is_input_bound(tiny_data, e2e_env, tmp_path):
    data = _upscaled_copy(tiny_data, tmp_path / "large", 1600)
    cli = Cli(train_args(data, name="slow", epochs=2, batch=4) + ["--workers", "0"], e2e_env)
    assert cli.finish() == 0, cli.stderr()
    verdicts = _verdicts(cli.events)
    assert verdicts and verdicts[-1].startswith("input-bound"), verdicts
    last = by_type(cli.events, "diagnosis")[-1]
    assert last["evidence"]["data_wait_share"] >= 0.2 and last["severity"] == "warning"
    done = cli.events[-1]
    assert done["efficiency"]["data_wait_share"] >= 0.2
    stored = json.loads((Path(done["last"]).parents[1] / "efficiency.json").read_text())
    assert stored == done["efficiency"]


def test_cached_small_images_are_not_input_bound(tiny_data, e2e_env):
    # yolov5s at imgsz 128 makes each step real work; cached 64 px images cost the loader almost nothing.
    cli = Cli(train_args(tiny_data, name="fast", epochs=2, batch=4, extra=("--cache", "ram"), imgsz=128,
                         model="yolov5s.yaml"), e2e_env)
    assert cli.finish() == 0, cli.stderr()
    verdicts = _verdicts(cli.events)
    assert verdicts and verdicts[-1] == "healthy", by_type(cli.events, "diagnosis")[-1]
    assert by_type(cli.events, "diagnosis")[-1]["evidence"]["data_wait_share"] < 0.05
