"""The README's ``yolostudio train data.yaml --model my.yaml --trust-model``, for real: a model YAML that fails
the strict check (a string that is more than a layer, an activation or a literal) is refused by the worker's
guard unless confirmed; confirmed, it trains to the end — and its run's checkpoints are recorded as its own."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from core.model_catalog import yolov5_package_dir
from core.trust import needs_trust
from tests.e2e.conftest import Cli, run_cli, train_args

pytestmark = pytest.mark.e2e


def test_a_confirmed_model_yaml_trains_and_an_unconfirmed_one_never_starts(tiny_data, e2e_env, tmp_path):
    doc = yaml.safe_load((yolov5_package_dir() / "models" / "yolov5n.yaml").read_text())
    doc["activation"] = "nn.SiLU().to('cpu')"  # harmless, but a call the strict check does not allow
    model = tmp_path / "my.yaml"
    model.write_text(yaml.safe_dump(doc))
    refused = run_cli(train_args(tiny_data, name="refused", epochs=1, model=str(model)), e2e_env)
    assert refused.returncode == 2 and "--trust-model" in refused.stderr and "activation" in refused.stderr
    cli = Cli(train_args(tiny_data, name="mine", epochs=1, model=str(model), extra=("--trust-model",)), e2e_env)
    assert cli.finish() == 0, cli.stderr()
    done = cli.events[-1]
    assert done["type"] == "done" and done["status"] == "completed"
    workspace = Path(e2e_env["YOLOSTUDIO_WORKSPACE"])
    assert not needs_trust(done["best"], workspace) and not needs_trust(done["last"], workspace)
