"""The weights jobs against a release server on 127.0.0.1, with checkpoints shaped like the official files.

The jobs run in this process (``run_weights_get(ctx)``) so a test can stop one and look at the store
between events; ``tests/cli/test_weights_verb.py`` runs the same path as a real worker process.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import threading

import pytest

from core.job.protocol import EventWriter
from core.weights import catalog
from core.weights.download import TEST_BASE_ENV
from core.weights.store import WeightsStore
from core.worker.control import ControlChannel
from core.worker.job import JobContext, JobError
from core.worker.weights_check import CheckpointMismatch, check_checkpoint
from core.worker.weights_job import run_weights_get, run_weights_import
from tests.fixtures.official_checkpoint import save_official_like
from tests.weights_server import ReleaseServer


@pytest.fixture(scope="module")
def official(tmp_path_factory):
    """(yolov5n-shaped checkpoint bytes, a 3-class fine-tuned yolov5n's bytes)."""
    folder = tmp_path_factory.mktemp("official")
    return (save_official_like(folder / "yolov5n.pt").read_bytes(),
            save_official_like(folder / "custom.pt", nc=3).read_bytes())


@pytest.fixture
def server(official, monkeypatch):
    for var in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)
    with ReleaseServer({"yolov5n.pt": official[0]}) as running:
        monkeypatch.setenv(TEST_BASE_ENV, running.base)
        yield running


class Recorder(io.StringIO):
    """The job's event stream; ``on_event`` sees each event as it is written."""

    def __init__(self, on_event=None) -> None:
        super().__init__()
        self.events: list[dict] = []
        self.on_event = on_event

    def write(self, text: str) -> int:
        for line in text.splitlines():
            if line.strip():
                event = json.loads(line)
                self.events.append(event)
                if self.on_event:
                    self.on_event(event)
        return len(text)


def context(workspace, job, spec, on_event=None):
    stream = Recorder(on_event)
    control = ControlChannel(None, on_stop=lambda source: None)
    return JobContext(job, {"workspace": str(workspace), **spec}, EventWriter(stream), control), stream


# -- the load check -----------------------------------------------------------------------------------
def test_official_shaped_checkpoint_passes_as_itself(official, tmp_path):
    path = tmp_path / "yolov5n.pt"
    path.write_bytes(official[0])
    facts = check_checkpoint(path, catalog.find_checkpoint("yolov5n"))
    assert facts["params"] == 1_872_157 and facts["classes"] == 80 and facts["detect_layers"] == 3


def test_checkpoint_of_another_size_or_a_fine_tuned_one_is_not_the_official(official, tmp_path):
    path = tmp_path / "x.pt"
    path.write_bytes(official[0])
    with pytest.raises(CheckpointMismatch) as other:
        check_checkpoint(path, catalog.find_checkpoint("yolov5s"))
    assert "not the official yolov5s" in str(other.value) and "width_multiple" in str(other.value)
    path.write_bytes(official[1])
    with pytest.raises(CheckpointMismatch) as tuned:
        check_checkpoint(path, catalog.find_checkpoint("yolov5n"))
    assert "3 classes instead of COCO's 80" in str(tuned.value)
    assert check_checkpoint(path, None)["classes"] == 3  # as an import under its own name it is fine


@pytest.mark.parametrize("content,words", [(b"<html>rate limited</html>", "not a PyTorch checkpoint"),
                                           (None, "not a YOLOv5 checkpoint")])
def test_files_that_are_not_yolov5_checkpoints(tmp_path, content, words):
    import torch

    path = tmp_path / "x.pt"
    if content is None:
        torch.save({"weights": torch.zeros(3)}, path)
    else:
        path.write_bytes(content)
    with pytest.raises(CheckpointMismatch) as refused:
        check_checkpoint(path, None)
    assert words in str(refused.value)


# -- weights_get --------------------------------------------------------------------------------------
def test_get_downloads_checks_and_stores(server, official, tmp_path):
    store = WeightsStore(tmp_path)
    final = store.path("yolov5n.pt")

    def never_partial_under_final_name(event):
        assert not final.exists() or event["type"] == "done"

    ctx, stream = context(tmp_path, "weights_get", {"name": "yolov5n"}, never_partial_under_final_name)
    assert run_weights_get(ctx) == "completed"
    assert final.read_bytes() == official[0] and store.verify("yolov5n.pt")
    record = store.entry("yolov5n.pt")
    assert record.source == "download" and record.url == server.url("yolov5n.pt")
    assert record.facts["params"] == 1_872_157
    progress = [e for e in stream.events if e["type"] == "download"]
    assert progress and progress[-1]["received"] == progress[-1]["total"] == len(official[0])
    assert {"downloading", "verifying"} <= {e["stage"] for e in stream.events if e["type"] == "stage"}
    assert ctx.done_fields["sha256"] == record.sha256 and not store.partial_path("yolov5n.pt").exists()
    again, _ = context(tmp_path, "weights_get", {"name": "yolov5n"})
    assert run_weights_get(again) == "completed" and again.done_fields["already"]
    assert len(server.requests) == 1  # already there: not fetched again


def test_interrupted_get_resumes(server, official, tmp_path):
    server.drop_after["yolov5n.pt"] = 1_000_000
    ctx, _ = context(tmp_path, "weights_get", {"name": "yolov5n", "retries": 0})
    with pytest.raises(JobError) as dropped:
        run_weights_get(ctx)
    store = WeightsStore(tmp_path)
    assert dropped.value.kind == "download-timeout" and store.state("yolov5n.pt") == "absent"
    assert store.partial_path("yolov5n.pt").stat().st_size == 1_000_000  # kept for the resume
    ctx, _ = context(tmp_path, "weights_get", {"name": "yolov5n"})
    assert run_weights_get(ctx) == "completed" and ctx.done_fields["resumed_from"] == 1_000_000
    assert store.verify("yolov5n.pt") and server.requests[-1]["range"] == "bytes=1000000-"


def test_stop_cancels_and_keeps_the_partial_file(server, tmp_path):
    server.stall_after["yolov5n.pt"] = 200_000
    ctx, _ = context(tmp_path, "weights_get", {"name": "yolov5n", "timeout_s": 60})
    threading.Timer(0.5, ctx.control.stop_requested.set).start()
    assert run_weights_get(ctx) == "stopped"
    store = WeightsStore(tmp_path)
    assert store.state("yolov5n.pt") == "absent" and store.partial_path("yolov5n.pt").stat().st_size == 200_000


def test_wrong_hash_is_refused_and_deleted(server, tmp_path, monkeypatch):
    pinned = dataclasses.replace(catalog.find_checkpoint("yolov5n"), sha256="0" * 64)
    monkeypatch.setattr("core.worker.weights_job.find_checkpoint", lambda name: pinned)
    ctx, _ = context(tmp_path, "weights_get", {"name": "yolov5n"})
    with pytest.raises(JobError) as refused:
        run_weights_get(ctx)
    store = WeightsStore(tmp_path)
    assert refused.value.kind == "download-hash" and "refused and deleted" in refused.value.message
    assert store.state("yolov5n.pt") == "absent" and not os.listdir(store.partial_dir)


def test_wrong_architecture_is_refused_and_deleted(server, official, tmp_path):
    server.files["yolov5n.pt"] = official[1]  # a 3-class model served under the official name
    ctx, _ = context(tmp_path, "weights_get", {"name": "yolov5n"})
    with pytest.raises(JobError) as refused:
        run_weights_get(ctx)
    store = WeightsStore(tmp_path)
    assert refused.value.kind == "checkpoint" and "3 classes" in refused.value.message
    assert store.state("yolov5n.pt") == "absent" and not os.listdir(store.partial_dir)


def test_404_is_a_clear_failure(server, tmp_path):
    del server.files["yolov5n.pt"]
    ctx, _ = context(tmp_path, "weights_get", {"name": "yolov5n"})
    with pytest.raises(JobError) as missing:
        run_weights_get(ctx)
    assert missing.value.kind == "download-not-found" and "404" in missing.value.message


def test_redirected_get(server, official, tmp_path):
    server.files["release-asset-1"] = official[0]
    server.redirects["yolov5n.pt"] = server.base + "release-asset-1"
    ctx, _ = context(tmp_path, "weights_get", {"name": "yolov5n"})
    assert run_weights_get(ctx) == "completed" and WeightsStore(tmp_path).verify("yolov5n.pt")


# -- weights_import -----------------------------------------------------------------------------------
def test_import_checks_hashes_and_records_the_origin(official, tmp_path):
    source = tmp_path / "Downloads" / "my-parts.pt"
    source.parent.mkdir()
    source.write_bytes(official[1])
    ctx, _ = context(tmp_path / "ws", "weights_import", {"source": str(source)})
    assert run_weights_import(ctx) == "completed"
    store = WeightsStore(tmp_path / "ws")
    record = store.entry("my-parts.pt")
    assert record.source == "import" and record.origin == str(source) and store.verify("my-parts.pt")
    assert record.facts["classes"] == 3
    twice, _ = context(tmp_path / "ws", "weights_import", {"source": str(source)})
    with pytest.raises(JobError) as exists:
        run_weights_import(twice)
    assert "already in the weights store" in exists.value.message


def test_import_under_an_official_name_must_be_that_checkpoint(official, tmp_path):
    source = tmp_path / "yolov5n.pt"
    source.write_bytes(official[1])  # fine-tuned, 3 classes: not the official yolov5n
    ctx, _ = context(tmp_path / "ws", "weights_import", {"source": str(source)})
    with pytest.raises(JobError) as refused:
        run_weights_import(ctx)
    store = WeightsStore(tmp_path / "ws")
    assert refused.value.kind == "checkpoint" and store.state("yolov5n.pt") == "absent"
    assert not os.listdir(store.partial_dir)
