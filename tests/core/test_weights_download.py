"""Downloads against a release server on 127.0.0.1: whole, resumed, redirected, missing, stalled, refused."""

from __future__ import annotations

import os
import threading
import time

import pytest

from core.weights import download as download_module
from core.weights.catalog import OFFICIAL_BASE
from core.weights.download import TEST_BASE_ENV, Download, check_url, test_base, url_for
from core.weights.download_errors import DownloadError
from tests.weights_server import ReleaseServer

DATA = os.urandom(300_000)


@pytest.fixture
def server(monkeypatch):
    for var in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)
    with ReleaseServer({"yolov5s.pt": DATA}) as running:
        monkeypatch.setenv(TEST_BASE_ENV, running.base)
        yield running


def test_complete_download_with_progress(server, tmp_path):
    part = tmp_path / "yolov5s.pt.part"
    seen = []
    size = Download(server.url("yolov5s.pt"), part, on_progress=seen.append).run()
    assert size == len(DATA) and part.read_bytes() == DATA
    assert seen[-1].received == len(DATA) and seen[-1].total == len(DATA)
    assert seen[-1].eta_s == 0 or seen[-1].eta_s is None
    assert [r["range"] for r in server.requests] == [None]


def test_interrupted_download_resumes_with_range(server, tmp_path):
    part = tmp_path / "yolov5s.pt.part"
    server.drop_after["yolov5s.pt"] = 100_000
    retries = []
    download = Download(server.url("yolov5s.pt"), part, backoff_s=0,
                        on_retry=lambda error, attempt, pause: retries.append((error.kind, attempt)))
    assert download.run() == len(DATA)
    assert part.read_bytes() == DATA
    assert retries == [("timeout", 2)]  # said before the second try (the job shows it as a warning)
    assert server.requests[1]["range"] == "bytes=100000-"
    assert server.requests[1]["if_range"] == server.etag("yolov5s.pt")  # a changed file is fetched whole
    assert download.resumed_from == 100_000


def test_a_later_get_resumes_what_a_failed_one_left(server, tmp_path):
    part = tmp_path / "yolov5s.pt.part"
    server.drop_after["yolov5s.pt"] = 50_000
    with pytest.raises(DownloadError) as failed:
        Download(server.url("yolov5s.pt"), part, retries=0).run()
    assert failed.value.kind == "timeout" and part.stat().st_size == 50_000  # kept for the next try
    assert Download(server.url("yolov5s.pt"), part).run() == len(DATA)
    assert part.read_bytes() == DATA and server.requests[-1]["range"] == "bytes=50000-"


def test_file_changed_on_server_is_fetched_whole(server, tmp_path):
    part = tmp_path / "yolov5s.pt.part"
    server.drop_after["yolov5s.pt"] = 50_000
    with pytest.raises(DownloadError):
        Download(server.url("yolov5s.pt"), part, retries=0).run()
    new = os.urandom(200_000)
    server.files["yolov5s.pt"] = new  # its ETag changes: If-Range makes the server send all of it
    assert Download(server.url("yolov5s.pt"), part).run() == len(new)
    assert part.read_bytes() == new


def test_server_that_ignores_range_starts_over(server, tmp_path):
    part = tmp_path / "yolov5s.pt.part"
    server.drop_after["yolov5s.pt"] = 50_000
    server.honour_range = False
    assert Download(server.url("yolov5s.pt"), part, backoff_s=0).run() == len(DATA)
    assert part.read_bytes() == DATA


def test_redirect_is_followed(server, tmp_path):
    server.files["asset-123"] = DATA
    server.redirects["yolov5s.pt"] = server.base + "asset-123"
    part = tmp_path / "yolov5s.pt.part"
    assert Download(server.url("yolov5s.pt"), part).run() == len(DATA)
    assert [r["path"].rsplit("/", 1)[-1] for r in server.requests] == ["yolov5s.pt", "asset-123"]


def test_redirect_off_https_is_refused(server, tmp_path):
    server.redirects["yolov5s.pt"] = "http://example.com/yolov5s.pt"  # plain HTTP, not loopback
    with pytest.raises(DownloadError) as refused:
        Download(server.url("yolov5s.pt"), tmp_path / "p.part").run()
    assert refused.value.kind == "refused" and "HTTPS" in refused.value.message
    assert len(server.requests) == 1  # example.com was never asked


def test_404_fails_at_once_with_a_way_out(server, tmp_path):
    with pytest.raises(DownloadError) as missing:
        Download(server.url("yolov5q.pt"), tmp_path / "p.part").run()
    assert missing.value.kind == "not-found" and "404" in missing.value.message
    assert "Import" in missing.value.hint
    assert len(server.requests) == 1  # not retried


def test_stalling_server_times_out_after_retries(server, tmp_path):
    server.stall_after["yolov5s.pt"] = 10_000
    part = tmp_path / "p.part"
    with pytest.raises(DownloadError) as stalled:
        Download(server.url("yolov5s.pt"), part, timeout_s=0.5, retries=1, backoff_s=0).run()
    assert stalled.value.kind == "timeout" and "2 times" in stalled.value.message
    assert len(server.requests) == 2 and server.requests[1]["range"] == "bytes=10000-"


def test_a_stalled_server_still_shows_its_bytes_and_cancel_ends_the_read_at_once(server, tmp_path, monkeypatch):
    monkeypatch.setattr(download_module, "STALE_REPORT_S", 0.0)  # tick() reports whenever it is called
    server.stall_after["yolov5s.pt"] = 10_000
    seen = []
    # An hour's read timeout: a cancel that did not end the blocked read would leave run() waiting (the suite's
    # per-test timeout fails it) or end as "timeout"; no wall-clock figure is asserted.
    download = Download(server.url("yolov5s.pt"), tmp_path / "p.part", timeout_s=3600, on_progress=seen.append)

    def watch() -> None:  # what the weights job's watcher thread does while the server is silent
        deadline = time.monotonic() + 60
        while (download._reading or (0,))[0] < 10_000 and time.monotonic() < deadline:
            time.sleep(0.01)
        download.tick()
        download.cancel()

    threading.Thread(target=watch, daemon=True).start()
    with pytest.raises(DownloadError) as cancelled:
        download.run()
    assert cancelled.value.kind == "cancelled"
    assert seen and seen[-1].received == 10_000 and seen[-1].total == len(DATA)  # the bytes that did arrive


def test_size_far_from_the_published_parameter_count_is_refused(server, tmp_path):
    part = tmp_path / "p.part"
    with pytest.raises(DownloadError) as refused:
        Download(server.url("yolov5s.pt"), part, plausible=(1_000_000, 4_000_000)).run()
    assert refused.value.kind == "size" and not part.exists()  # refused before a byte was written


def test_published_size_must_match(server, tmp_path):
    with pytest.raises(DownloadError) as refused:
        Download(server.url("yolov5s.pt"), tmp_path / "p.part", expected_size=len(DATA) + 1).run()
    assert refused.value.kind == "size"


def test_offline_names_the_cause(monkeypatch, tmp_path):
    import socket
    import urllib.error

    class Offline:
        def open(self, *args, **kwargs):
            raise urllib.error.URLError(socket.gaierror(-3, "Temporary failure in name resolution"))

    download = Download(OFFICIAL_BASE + "yolov5s.pt", tmp_path / "p.part", opener=Offline(), backoff_s=0)
    with pytest.raises(DownloadError) as offline:
        download.run()
    assert offline.value.kind == "offline" and "offline" in offline.value.message
    assert "HTTPS_PROXY" in offline.value.hint
    assert download.tries == 1  # no network name: retrying does not help


def test_only_official_urls_are_accepted(monkeypatch):
    monkeypatch.delenv(TEST_BASE_ENV, raising=False)
    check_url(OFFICIAL_BASE + "yolov5s.pt")
    assert url_for("yolov5s.pt") == OFFICIAL_BASE + "yolov5s.pt"
    for url in ("http://github.com/ultralytics/yolov5/releases/download/v7.0/yolov5s.pt",
                "https://github.com/someone/yolov5/releases/download/v7.0/yolov5s.pt",
                "https://github.com.evil.example/ultralytics/yolov5/releases/download/v7.0/yolov5s.pt",
                "http://127.0.0.1:8000/releases/yolov5s.pt"):
        with pytest.raises(DownloadError) as refused:
            check_url(url)
        assert refused.value.kind == "refused"


@pytest.mark.parametrize("base,honoured", [("http://127.0.0.1:9/releases/", True), ("http://localhost:9/", True),
                                           ("http://[::1]:9/", True), ("http://10.0.0.1:9/", False),
                                           ("https://127.0.0.1:9/", False), ("http://example.com/", False)])
def test_test_base_is_loopback_only(monkeypatch, base, honoured):
    monkeypatch.setenv(TEST_BASE_ENV, base)
    assert (test_base() == base) is honoured
