"""``yolostudio wizard``: the JSON shape, another machine's facts, durations, and ``train --config`` reading
the wizard's own document (the config is accepted as it is; flags on the command line override it)."""

from __future__ import annotations

import argparse
import json
import re
import shlex

import pytest

from cli.main import main
from cli.verbs.wizard import parse_duration
from core.environment.facts import (EnvironmentFacts, GpuFacts, NvmlFacts, SystemFacts, TorchFacts, save_facts)
from core.training.options import TrainConfig, add_train_arguments, config_from_args, load_config_file
from tests.core.test_dataset_prepare import dataset


def four_gpus(path):
    gpu = dict(name="NVIDIA RTX A5000", memory_total_gb=24.0, memory_used_gb=0.3, capability=[8, 6])
    save_facts(EnvironmentFacts(system=SystemFacts(os="Linux", logical_cores=32, usable_cores=32, ram_available_gb=120,
                                                   shm_free_gb=60, python_version="3.11.9"),
                                nvml=NvmlFacts(available=True, gpus=[GpuFacts(i, **gpu) for i in range(4)]),
                                torch=TorchFacts(cuda_available=True, device_count=4)), path)
    return path


def test_json_for_another_machines_facts_has_the_issues_shape_and_the_ddp_commands(tmp_path, capsys):
    data = dataset(tmp_path / "ds", {f"i{n}": (1920, 1080) for n in range(6)})
    facts = four_gpus(tmp_path / "facts.json")
    assert main(["--workspace", str(tmp_path / "ws"), "wizard", str(data), "--facts", str(facts), "--json",
                 "--goal", "accurate", "--time-budget", "2h", "--imgsz", "640"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {"config", "reasons", "predicted", "commands"} <= set(doc)
    assert set(doc["predicted"]) >= {"images_per_s", "epoch_s"}
    for reason in doc["reasons"].values():
        assert reason["why"] and "evidence" in reason
    cfg = doc["config"]
    assert cfg["device"] == "0,1,2,3" and cfg["batch"] % 4 == 0
    cmds = doc["commands"]
    torchrun = shlex.split(cmds["torchrun"])
    assert torchrun[:6] == ["python", "-m", "torch.distributed.run", "--nproc_per_node", "4", "--standalone"]
    assert torchrun[torchrun.index("--batch-size") + 1] == str(cfg["batch"])
    assert len(cmds["nodes"]) == 2 and "--node_rank" in cmds["nodes"][1] and "--rdzv_endpoint" in cmds["elastic"]
    elastic = shlex.split(cmds["elastic"])
    assert re.fullmatch(r"[0-9a-f]{32}", elastic[elastic.index("--rdzv_id") + 1])  # random, not a fixed name
    node = shlex.split(cmds["nodes"][0])
    assert node[node.index("--batch-size") + 1] == str(cfg["batch"] * 2)  # the total over both machines
    assert cmds["nohup"].startswith("nohup yolostudio train") and cmds["nohup"].endswith("> train.log 2>&1 &")
    assert cmds["yolov5"].startswith("yolov5 train --data")
    assert "prepare" in cmds and "--imgsz" in cmds["prepare"]  # 1920 px photos: a prepared copy is recommended
    assert doc["failures"]["measure"]


def test_text_output_names_estimates_and_the_saved_file_trains(tmp_path, capsys):
    data = dataset(tmp_path / "ds", {"a": (320, 240), "b": (320, 240)})
    saved = tmp_path / "wizard.json"
    assert main(["--workspace", str(tmp_path / "ws"), "wizard", str(data), "--no-measure", "--device", "cpu",
                 "--save", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "workers" in out and "* estimated" in out and "Predicted:" in out
    assert f"yolostudio train --config {saved}" in out
    cfg = load_config_file(saved)
    assert cfg.data == str(data.absolute()) and cfg.device == "cpu" and cfg.imgsz == 320


def test_train_config_file_is_the_base_and_flags_override_it(tmp_path):
    saved = tmp_path / "c.json"
    saved.write_text(json.dumps({"config": {"data": "/d.yaml", "batch": 48, "workers": 3, "cache": "ram"}}))
    parser = argparse.ArgumentParser()
    add_train_arguments(parser)
    args = parser.parse_args(["--workers", "5"])
    cfg = config_from_args(args, load_config_file(saved))
    assert (cfg.data, cfg.batch, cfg.workers, cfg.cache, cfg.epochs) == ("/d.yaml", 48, 5, "ram", TrainConfig().epochs)


@pytest.mark.parametrize(("text", "problem"), [("[1, 2]", "holds no options"), ("{batch: sixteen}", "batch"),
                                                ("{batchsize: 16}", "unknown options batchsize"), ("{: [", "Cannot read")])
def test_a_bad_config_file_is_refused_by_name(tmp_path, text, problem):
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    with pytest.raises(ValueError, match=problem):
        load_config_file(bad)


def test_train_with_a_bad_config_file_exits_2_with_the_reason(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{\"epochs\": \"many\"}")
    assert main(["--workspace", str(tmp_path / "ws"), "train", "--config", str(bad)]) == 2
    assert "epochs" in capsys.readouterr().err


@pytest.mark.parametrize(("text", "seconds"), [("2h", 7200), ("90m", 5400), ("1h30m", 5400), ("45s", 45), ("600", 600)])
def test_time_budget_durations(text, seconds):
    assert parse_duration(text) == seconds


def test_a_duration_that_is_not_one_is_refused():
    with pytest.raises(argparse.ArgumentTypeError):
        parse_duration("two hours")
