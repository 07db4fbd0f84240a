"""The one torchrun command builder: one node, several nodes (static master, elastic), and its refusals.

The argv is parsed back with torch's own launcher parser where torch is installed, so every flag we build is
one ``torch.distributed.run`` accepts, with the value we meant.
"""

from __future__ import annotations

import pytest

from core.job.torchrun import (APP_LAUNCHER, LOOPBACK_BACKEND, LOOPBACK_HOST, Topology, app_launch_argv, node_commands,
                           torchrun_argv)

ENTRY = ["-m", "yolov5.train", "--data", "d.yaml", "--batch-size", "64", "--device", "0,1,2,3"]


def _parsed(argv: list[str]):
    run = pytest.importorskip("torch.distributed.run")
    assert argv[:3] == ["python", "-m", "torch.distributed.run"]
    return run.get_args_parser().parse_args(argv[3:])


def test_one_node_is_standalone_with_one_process_per_gpu():
    argv = torchrun_argv(ENTRY, Topology(nproc_per_node=4))
    args = _parsed(argv)
    assert args.nproc_per_node == "4" and args.standalone
    assert args.module and args.training_script == "yolov5.train"
    assert args.training_script_args == ENTRY[2:]


def test_static_master_gives_each_node_its_rank():
    commands = node_commands(ENTRY, Topology(nproc_per_node=8, nnodes=3, master_addr="10.0.0.1", master_port=29511))
    assert len(commands) == 3
    for rank, argv in enumerate(commands):
        args = _parsed(argv)
        assert (args.nnodes, args.node_rank, args.master_addr, args.master_port) == ("3", rank, "10.0.0.1", 29511)
        assert not args.standalone
        assert args.training_script_args == ENTRY[2:]


def test_elastic_rendezvous_is_the_same_command_on_every_node():
    commands = node_commands(ENTRY, Topology(nproc_per_node=2, nnodes=2, rdzv_endpoint="head:29400", rdzv_id="job7"))
    assert commands[0] == commands[1]
    args = _parsed(commands[0])
    assert (args.rdzv_backend, args.rdzv_endpoint, args.rdzv_id, args.nnodes) == ("c10d", "head:29400", "job7", "2")


@pytest.mark.parametrize("topology", [Topology(nproc_per_node=0), Topology(nproc_per_node=2, nnodes=2)])
def test_impossible_topologies_are_refused(topology: Topology):
    with pytest.raises(ValueError):
        torchrun_argv(ENTRY, topology)


def test_world_size():
    assert Topology(nproc_per_node=8, nnodes=4).world_size == 32


def test_the_apps_launch_on_one_machine_meets_on_loopback_only():
    """Not ``--standalone`` (its stores listen on every interface): the loopback rendezvous, ranks at 127.0.0.1."""
    argv = app_launch_argv(ENTRY, Topology(nproc_per_node=2, rdzv_id="local"))
    assert argv[:3] == ["python", "-m", APP_LAUNCHER]
    args = _parsed(["python", "-m", "torch.distributed.run", *argv[3:]])
    assert not args.standalone and (args.nnodes, args.nproc_per_node) == ("1", "2")
    assert (args.rdzv_backend, args.rdzv_endpoint, args.rdzv_id) == (LOOPBACK_BACKEND, f"{LOOPBACK_HOST}:0", "local")
    assert args.local_addr == LOOPBACK_HOST and args.training_script_args == ENTRY[2:]


def test_the_apps_launch_on_several_machines_keeps_the_c10d_flags_and_the_run_id():
    topology = Topology(nproc_per_node=1, nnodes=2, rdzv_endpoint="10.0.0.1:29400", rdzv_id="f" * 32)
    argv = app_launch_argv(ENTRY, topology)
    assert argv[:3] == ["python", "-m", APP_LAUNCHER] and argv[3:] == torchrun_argv(ENTRY, topology)[3:]
    args = _parsed(["python", "-m", "torch.distributed.run", *argv[3:]])
    assert (args.rdzv_backend, args.rdzv_id) == ("c10d", "f" * 32)


def test_several_machines_meeting_at_a_loopback_endpoint_stay_on_loopback():
    """``--rdzv-endpoint 127.0.0.1:P``: every "machine" is this one, so the rendezvous is the loopback one too."""
    topology = Topology(nproc_per_node=1, nnodes=2, node_rank=1, rdzv_endpoint="localhost:29411", rdzv_id="r")
    args = _parsed(["python", "-m", "torch.distributed.run", *app_launch_argv(ENTRY, topology)[3:]])
    assert (args.rdzv_backend, args.rdzv_endpoint, args.nnodes) == (LOOPBACK_BACKEND, f"{LOOPBACK_HOST}:29411", "2")
    assert args.local_addr == LOOPBACK_HOST and args.rdzv_id == "r"
