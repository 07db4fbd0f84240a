"""Errors the app carries on after are said in a log line (the worker's stderr is the run's worker.log), never
dropped: the scan cache, the resume's opt.yaml, efficiency.json, the DDP dataset hash."""

from __future__ import annotations

import logging

from core.dataset.cache import ScanCache
from core.worker import ddp, train_job


def test_a_scan_cache_that_cannot_be_read_or_written_is_logged(tmp_path, caplog):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    caplog.set_level(logging.WARNING, logger="yolostudio.dataset.cache")
    ScanCache(blocker / "scan.table").append({"img.jpg": ([1, 2, 3, 4], ({}, {}))})
    assert any("cannot be written" in r.getMessage() and "1 checked entries" in r.getMessage()
               for r in caplog.records)
    cache = ScanCache(tmp_path / "scan.table")
    cache.journal.mkdir()  # a folder where the journal should be: not "no journal yet"
    caplog.clear()
    assert cache.load() == (None, {})
    assert any("cannot be read" in r.getMessage() for r in caplog.records)
    caplog.clear()
    assert ScanCache(tmp_path / "fresh.table").load() == (None, {})  # no journal yet: nothing to say
    assert not caplog.records


def test_an_unreadable_opt_yaml_on_resume_is_logged(tmp_path, caplog):
    opt_yaml = tmp_path / "opt.yaml"
    opt_yaml.mkdir()
    caplog.set_level(logging.WARNING, logger="yolostudio.worker.train")
    train_job._resume_on_devices(opt_yaml, "0")
    assert any(str(opt_yaml) in r.getMessage() for r in caplog.records)


def test_efficiency_json_that_cannot_be_written_is_logged_and_the_run_still_ends(tmp_path, caplog):
    class Monitor:
        class efficiency:  # noqa: N801 - stands in for BottleneckMonitor.efficiency
            @staticmethod
            def summary() -> dict:
                return {"images_per_s": 1.0}

    (tmp_path / "efficiency.json").mkdir()  # cannot be replaced by a file
    caplog.set_level(logging.WARNING, logger="yolostudio.worker.train")
    fields = train_job._done_fields(None, Monitor(), tmp_path)
    assert fields["efficiency"] == {"images_per_s": 1.0}
    assert any("efficiency.json was not written" in r.getMessage() for r in caplog.records)


def test_a_dataset_file_that_cannot_be_hashed_is_logged(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="yolostudio.worker.ddp")
    assert ddp._file_sha256(tmp_path / "missing.yaml") is None
    assert any("missing.yaml" in r.getMessage() for r in caplog.records)
