"""Several GPUs and machines: which runs go through torchrun, the rules refused before a launch, and the
commands for the other machines (``core.training.distributed``), plus the launch argv a run's spec gives."""

from __future__ import annotations

from dataclasses import replace
import shlex
import socket
from pathlib import Path

import pytest

from core.training.distributed import (LOCAL_RUN_ID, check_distributed, endpoint_answers, launch_problems, node_command,
                              other_node_commands, port_free, slurm_script, split_endpoint, topology_of)
from core.job.jobs import JobSpec
from core.environment.machine import MachineFacts
from core.training.options import TrainConfig

FOUR_GPUS = MachineFacts(gpu_count=4, cpu_count=16, gpu_memory=((1.0, 24.0), (23.0, 24.0), (6.0, 24.0), None))


def codes(findings) -> dict[str, str]:
    return {f.field: f.severity.value for f in findings}


def test_one_gpu_or_the_cpu_is_one_process_and_several_gpus_are_one_rank_each():
    assert topology_of(TrainConfig(device="0")) is None
    assert topology_of(TrainConfig(device="cpu")) is None
    topology = topology_of(TrainConfig(device="0,2,3", name="exp"))
    # one machine meets on 127.0.0.1 only (core.worker.rdzv_launch): its id is not derived from the run name
    assert (topology.nproc_per_node, topology.nnodes, topology.rdzv_id) == (3, 1, LOCAL_RUN_ID)
    assert topology_of(TrainConfig(device="cpu", nproc_per_node=2)).nproc_per_node == 2  # CPU ranks over gloo
    assert topology_of(TrainConfig(device="0", nproc_per_node=1)).world_size == 1  # single-rank DDP
    assert topology_of(TrainConfig(device="0,1", nnodes=2, rdzv_endpoint="h:1")).world_size == 4


@pytest.mark.parametrize("batch, message", [(31, "30 or 33"), (-1, "Automatic batch")])
def test_the_batch_must_split_evenly_and_autobatch_is_refused(batch, message):
    found = check_distributed(TrainConfig(device="0,2,3", batch=batch, workers=2), FOUR_GPUS)
    batch_problem = next(f for f in found if f.field == "batch")
    assert batch_problem.severity == "error" and message in batch_problem.message + batch_problem.fix


def test_sync_bn_is_offered_when_each_gpu_gets_eight_images_or_fewer():
    assert codes(check_distributed(TrainConfig(device="0,2", batch=16, workers=2), FOUR_GPUS))["sync_bn"] == "info"
    assert "sync_bn" not in codes(check_distributed(TrainConfig(device="0,2", batch=16, workers=2, sync_bn=True),
                                                    FOUR_GPUS))
    assert "sync_bn" not in codes(check_distributed(TrainConfig(device="0,2", batch=64, workers=2), FOUR_GPUS))


def test_a_gpu_named_twice_busy_gpus_and_workers_per_rank():
    found = check_distributed(TrainConfig(device="0,0,2", batch=24, workers=8), FOUR_GPUS)
    twice = next(f for f in found if "more than once" in f.message)
    assert twice.severity == "error" and "0,2" in twice.fix
    found = check_distributed(TrainConfig(device="0,1,2", batch=24, workers=8), FOUR_GPUS)
    busy = [f for f in found if f.field == "device"]
    assert [(f.severity.value, "GPU 1" in f.message) for f in busy] == [("error", True), ("warning", False)]
    workers = next(f for f in found if f.field == "workers")
    assert "24 loader processes for 16" in workers.message and "5 workers" in workers.fix


def test_more_ranks_than_gpus_and_machine_fields():
    found = codes(check_distributed(TrainConfig(device="0,2", batch=12, nproc_per_node=3), FOUR_GPUS))
    assert found["nproc_per_node"] == "error"
    found = codes(check_distributed(TrainConfig(device="cpu", batch=8, nnodes=2, node_rank=2), FOUR_GPUS))
    assert found["node_rank"] == "error" and found["rdzv_endpoint"] == "error"  # no meeting point either
    assert codes(check_distributed(TrainConfig(device="cpu", nnodes=2, rdzv_endpoint="nohost"),
                                   FOUR_GPUS))["rdzv_endpoint"] == "error"
    assert split_endpoint("[::1]:29400") == ("::1", 29400) and split_endpoint("h:0") is None


def test_every_other_machine_gets_its_own_command_with_the_same_options():
    cfg = TrainConfig(data="/d/data.yaml", device="0,1", batch=32, epochs=5, nnodes=3, node_rank=0,
                      rdzv_endpoint="10.0.0.1:29400", name="big")
    commands = other_node_commands(cfg)
    assert [rank for rank, _ in commands] == [1, 2]
    argv = shlex.split(commands[1][1])
    assert argv[:3] == ["yolostudio", "train", "/d/data.yaml"]
    flags = dict(zip(argv[3::2], argv[4::2]))
    assert flags["--node-rank"] == "2" and flags["--rdzv-endpoint"] == "10.0.0.1:29400"
    assert flags["--device"] == "0,1" and flags["--batch"] == "32" and flags["--nnodes"] == "3"
    assert node_command(cfg, 0)[node_command(cfg, 0).index("--name") + 1] == "big"


def test_the_slurm_script_runs_one_task_per_node_meeting_at_the_first():
    script = slurm_script(TrainConfig(data="/d/data.yaml", device="0,1,2,3", batch=64, nnodes=2,
                                      rdzv_endpoint="x:29411", workers=4, name="big"))
    assert "#SBATCH --nodes=2" in script and "#SBATCH --ntasks-per-node=1" in script
    assert "#SBATCH --gpus-per-node=4" in script and "PORT=29411" in script
    assert "srun --kill-on-bad-exit=1" in script and '--node-rank "$SLURM_NODEID"' in script
    assert '"$HEAD:$PORT"' in script and "scontrol show hostnames" in script


def test_the_run_spec_launches_through_torchrun_one_worker_per_rank(tmp_path: Path):
    spec = {"run_dir": str(tmp_path), "topology": {"nproc_per_node": 2, "nnodes": 1, "node_rank": 0,
                                                   "master_addr": "", "master_port": 29500, "rdzv_endpoint": "",
                                                   "rdzv_id": "x"}}
    argv = JobSpec.for_run("train", tmp_path, spec).argv(python="py")
    # the app's launcher: torchrun with the rendezvous kept on 127.0.0.1 (not --standalone, which listens on *)
    assert argv[:5] == ["py", "-m", "core.worker.rdzv_launch", "--nproc_per_node", "2"]
    assert "--standalone" not in argv and argv[argv.index("--rdzv_backend") + 1] == "yolostudio-loopback"
    assert argv[-4:] == ["-m", "core.worker", "train", str(tmp_path / "spec.json")]
    env = JobSpec.for_run("train", tmp_path, spec).env({"PATH": "/bin"})
    assert int(env["OMP_NUM_THREADS"]) >= 1
    assert JobSpec.for_run("train", tmp_path, {"run_dir": str(tmp_path)}).argv(python="py")[:3] == [
        "py", "-m", "core.worker"]


def test_a_taken_port_and_a_silent_endpoint_are_said_before_the_launch():
    with socket.socket() as busy:
        busy.bind(("", 0))
        port = busy.getsockname()[1]
        assert not port_free(port)
        found = launch_problems(TrainConfig(device="cpu", nnodes=2, rdzv_endpoint=f"127.0.0.1:{port}"))
        assert found and "already in use" in found[0].message
    assert port_free(port)
    assert not endpoint_answers("127.0.0.1", port, wait_s=0.5)  # nothing listens: no hang
    assert launch_problems(TrainConfig(device="cpu", nproc_per_node=2)) == []  # standalone picks its own port


def test_a_resume_may_move_the_ranks_and_the_batch_rule_is_checked_again():
    from core.training.distributed import resume_with
    from core.training.config import TrainConfig as Config

    spec = {"config": Config(device="0,2", batch=32, workers=2).to_dict(), "topology": {"nproc_per_node": 2}}
    moved, problems = resume_with(spec, FOUR_GPUS, {"device": "0,2,3", "nproc_per_node": None, "epochs": 999})
    assert moved["topology"]["nproc_per_node"] == 3 and moved["config"]["epochs"] == 100  # only where ranks run
    assert [p.field for p in problems if p.severity == "error"] == ["batch"]  # 32 does not split over 3
    same, problems = resume_with(spec, FOUR_GPUS, {"rdzv_endpoint": None})
    assert same["topology"]["nproc_per_node"] == 2 and not [p for p in problems if p.severity == "error"]


def test_the_slurm_script_makes_one_random_run_id_per_job_for_every_node(tmp_path: Path):
    import subprocess

    script = slurm_script(TrainConfig(data="/d/data.yaml", device="0", nnodes=2, rdzv_endpoint="x:29411",
                                      rdzv_id="saved-id", name="big"))
    assert "saved-id" not in script and '--rdzv-id "$RDZV_ID"' in script  # not a fixed id reused by every job
    line = next(line for line in script.splitlines() if line.startswith("export RDZV_ID="))
    made = [subprocess.run(["bash", "-c", f"{line}; printf %s \"$RDZV_ID\""], capture_output=True, text=True,
                           check=True).stdout for _ in range(2)]
    assert all(len(m) == 32 and int(m, 16) >= 0 for m in made) and made[0] != made[1]


def test_machine_0_of_several_gets_an_unguessable_run_id_and_the_others_must_be_given_it():
    from core.training.config import validate_config

    cfg = TrainConfig(device="cpu", nnodes=2, rdzv_endpoint="10.0.0.1:29400", name="exp")
    first, second = (validate_config(cfg).config.rdzv_id for _ in range(2))
    assert len(first) == 32 and first != second and "exp" not in first
    assert topology_of(replace(cfg, rdzv_id=first)).rdzv_id == first
    assert validate_config(replace(cfg, rdzv_id="given")).config.rdzv_id == "given"
    joining = check_distributed(replace(cfg, node_rank=1), MachineFacts(cpu_count=8))
    assert [p.field for p in joining if p.severity == "error"] == ["rdzv_id"]
    assert check_distributed(replace(cfg, node_rank=1, rdzv_id=first), MachineFacts(cpu_count=8)) == []


def test_a_meeting_point_from_a_file_needs_the_user_to_give_it():
    from core.training.distributed import unconfirmed_endpoints

    from_file = TrainConfig(nnodes=2, rdzv_endpoint="203.0.113.9:29400", master_addr="203.0.113.10")
    found = unconfirmed_endpoints(from_file, set(), "c.json")
    assert [p.field for p in found] == ["rdzv_endpoint", "master_addr"]
    assert "c.json" in found[0].message and "--rdzv-endpoint 203.0.113.9:29400" in found[0].fix
    assert [p.field for p in unconfirmed_endpoints(from_file, {"rdzv_endpoint"}, "c.json")] == ["master_addr"]
    assert unconfirmed_endpoints(TrainConfig(nnodes=2), set(), "c.json") == []
    assert unconfirmed_endpoints(None, set(), "") == []


def test_a_several_machines_resume_keeps_its_run_id_or_machine_0_makes_one_and_names_it_to_the_others():
    from core.training.distributed import resume_commands, resume_with

    old = TrainConfig(device="cpu", batch=4, nnodes=2, nproc_per_node=1, rdzv_endpoint="10.0.0.1:29400", name="x")
    spec = {"config": old.to_dict(), "topology": {"nproc_per_node": 1}}  # a run from before run ids
    resumed, problems = resume_with(spec, MachineFacts(cpu_count=8), {"rdzv_endpoint": "10.0.0.2:29401"})
    run_id = resumed["config"]["rdzv_id"]
    assert len(run_id) == 32 and resumed["topology"]["rdzv_id"] == run_id and problems == []
    [(rank, command)] = resume_commands(TrainConfig.from_dict(resumed["config"]), "x")
    assert rank == 1 and shlex.split(command) == ["yolostudio", "resume", "x", "--rdzv-endpoint", "10.0.0.2:29401",
                                                  "--rdzv-id", run_id]
    again, _ = resume_with(resumed, MachineFacts(cpu_count=8), {})
    assert again["config"]["rdzv_id"] == run_id  # an id it has is kept: every machine's copy of the run agrees
    joining, problems = resume_with({"config": replace(old, node_rank=1).to_dict()}, MachineFacts(cpu_count=8), {})
    assert [p.field for p in problems if p.severity == "error"] == ["rdzv_id"]  # machine 1 is given it (--rdzv-id)
    assert resume_commands(TrainConfig.from_dict(joining["config"]), "x") == []
