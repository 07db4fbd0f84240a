"""Fetching one file over HTTPS with the standard library: the app's only network use, always asked for.

``Download(url, part).run()`` writes the response into ``part`` (a temp name under the store's
``.partial/``), resuming what an earlier try left there with an HTTP ``Range`` request (``If-Range`` on the
validator recorded beside it, so a file that changed on the server is fetched again from the start).
Certificates are checked (``ssl.create_default_context``: the system's CAs, or ``SSL_CERT_FILE``), proxies
come from the environment (``HTTPS_PROXY``/``NO_PROXY``, read by urllib), and every redirect must stay on
HTTPS. A server that stops sending for ``timeout_s`` is a timeout; a timeout or a dropped connection is
retried (resuming) up to ``retries`` times, with a pause between tries; what cannot get better by retrying
(no such file, no network name resolution, a certificate that fails, a proxy asking for a password) fails at
once. Every failure is a ``DownloadError`` whose words say what happened and what to do
(``core/weights/download_errors.py``).

Only the official release URLs are accepted (``check_url``). Tests point the downloads at a server on
this machine with ``YOLOSTUDIO_TEST_WEIGHTS_BASE``, which is honoured only for a loopback ``http://``
address — it cannot send the app anywhere on the network.
"""

from __future__ import annotations

import ipaddress
import json
import os
import socket
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from http.client import HTTPException
from pathlib import Path
from typing import Any, Callable

from core.i18n import tr
from core.weights.catalog import OFFICIAL_BASE
from core.weights.download_errors import DownloadError, http_error, network_error

TEST_BASE_ENV = "YOLOSTUDIO_TEST_WEIGHTS_BASE"
CHUNK = 64 * 1024
PROGRESS_EVERY_S = 0.25
STALE_REPORT_S = 1.0
SPEED_WINDOW_S = 5.0
USER_AGENT = "YOLO-Studio-weights/1"


@dataclass(frozen=True)
class Progress:
    received: int
    total: int | None
    speed_bps: float | None  # over the last few seconds
    eta_s: float | None


# -- which URLs ---------------------------------------------------------------------------------------
def _loopback_http(url: str) -> bool:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        return False
    if parts.hostname == "localhost":
        return True
    try:
        return ipaddress.ip_address(parts.hostname).is_loopback
    except ValueError:
        return False


def test_base() -> str | None:
    """The tests' local server, when set and on a loopback address; anything else is ignored."""
    base = os.environ.get(TEST_BASE_ENV, "")
    return base if base and _loopback_http(base) else None


def url_for(file_name: str) -> str:
    """The URL ``file_name`` is fetched from: the official release (or, in tests, the local server)."""
    return (test_base() or OFFICIAL_BASE) + urllib.parse.quote(file_name)


def check_url(url: str) -> None:
    """Refuse anything but the official release over HTTPS (and the tests' loopback server)."""
    allowed = [OFFICIAL_BASE] + ([base] if (base := test_base()) else [])
    if not any(url.startswith(prefix) for prefix in allowed):
        raise DownloadError("refused", tr("{url} is not an official YOLOv5 release URL; YOLO Studio downloads "
                                          "only from {base}.", url=url, base=OFFICIAL_BASE))


class _HttpsRedirects(urllib.request.HTTPRedirectHandler):
    """Follow a redirect only to HTTPS (GitHub sends release files on to its CDN), or loopback in tests."""

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> Any:
        target = urllib.parse.urljoin(req.full_url, newurl)
        if not (target.startswith("https://") or (test_base() and _loopback_http(target))):
            raise DownloadError("refused", tr("The server redirected the download to {url}, which is not HTTPS; "
                                              "refused.", url=target))
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def build_opener() -> urllib.request.OpenerDirector:
    """Proxies from the environment, certificates checked, HTTPS-only redirects."""
    return urllib.request.build_opener(urllib.request.ProxyHandler(),
                                       urllib.request.HTTPSHandler(context=ssl.create_default_context()),
                                       _HttpsRedirects())


# -- one download -------------------------------------------------------------------------------------
class Download:
    """One file into ``part``; ``run()`` returns its size. ``cancel()`` may be called from another thread:
    it ends a read that is waiting on a silent server at once."""

    def __init__(self, url: str, part: Path, *, timeout_s: float = 30.0, retries: int = 3,
                 plausible: tuple[int, int] | None = None, expected_size: int | None = None,
                 on_progress: Callable[[Progress], None] | None = None,
                 on_retry: Callable[[DownloadError, int, float], None] | None = None,
                 opener: urllib.request.OpenerDirector | None = None, backoff_s: float = 2.0) -> None:
        check_url(url)
        self.url = url
        self.part = Path(part)
        self.meta = self.part.with_name(self.part.name + ".json")
        self.timeout_s = timeout_s
        self.retries = retries
        self.plausible = plausible
        self.expected_size = expected_size
        self.on_progress = on_progress
        self.on_retry = on_retry  # (what failed, the try about to start, seconds until then): say it
        self.opener = opener or build_opener()
        self.backoff_s = backoff_s
        self.resumed_from = 0  # bytes already there when the last try started
        self.tries = 0
        self._cancelled = threading.Event()
        self._response: Any = None
        self._samples: list[tuple[float, int]] = []
        self._last_report = 0.0
        self._report_lock = threading.Lock()  # the read loop and ``tick`` (another thread) both report
        self._reading: tuple[int, int | None] | None = None  # (bytes so far, total) while a body arrives

    # -- control ---------------------------------------------------------------------------------------
    def cancel(self) -> None:
        self._cancelled.set()
        _shutdown(self._response)

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    # -- the loop --------------------------------------------------------------------------------------
    def run(self) -> int:
        self.part.parent.mkdir(parents=True, exist_ok=True)
        last: DownloadError | None = None
        for attempt in range(self.retries + 1):
            self._check_cancel()
            if attempt:
                pause = self.backoff_s * 2 ** (attempt - 1)  # 2 s, 4 s, 8 s; a cancel ends it
                if self.on_retry is not None and last is not None:
                    self.on_retry(last, attempt + 1, pause)
                self._cancelled.wait(pause)
                self._check_cancel()
            self.tries = attempt + 1
            try:
                return self._try_once()
            except DownloadError as exc:
                if self.cancelled:
                    raise self._cancel_error() from None
                if not exc.retryable:
                    raise
                last = exc
        assert last is not None
        tries = self.retries + 1
        raise DownloadError(last.kind, tr("{reason} (tried {tries} times).", reason=last.message, tries=tries),
                            last.hint)

    def _try_once(self) -> int:
        have = self.part.stat().st_size if self.part.is_file() else 0
        validator = self._validator() if have else None
        if have and validator is None:
            have = 0  # a partial file without its record cannot be trusted to be the same file
        request = urllib.request.Request(self.url, headers={"User-Agent": USER_AGENT, "Accept-Encoding": "identity"})
        if have:
            request.add_header("Range", f"bytes={have}-")
            if validator:
                request.add_header("If-Range", validator)
        try:
            response = self.opener.open(request, timeout=self.timeout_s)
        except urllib.error.HTTPError as exc:
            if exc.code == 416 and have:  # the part is whole already, or longer than the file: start again
                recorded = self._recorded_total()
                if recorded == have:
                    return have
                self._start_over()
                raise DownloadError("http", tr("The server refused to resume the download."), retryable=True) from None
            raise http_error(exc) from None
        except DownloadError:
            raise
        except (urllib.error.URLError, OSError, HTTPException) as exc:
            raise network_error(exc, self.timeout_s) from None
        self._response = response
        try:
            if self.cancelled:
                raise self._cancel_error()
            return self._receive(response, have)
        finally:
            self._response = None
            response.close()

    def _receive(self, response: Any, have: int) -> int:
        status = response.status
        if status == 206 and have:
            start, total = _content_range(response.headers.get("Content-Range", ""))
            if start != have:
                self._start_over()
                raise DownloadError("http", tr("The server resumed at the wrong place."), retryable=True)
            mode = "ab"
        else:  # 200: the whole file (the server ignored the range, or the file changed)
            have = 0
            total = _int(response.headers.get("Content-Length"))
            mode = "wb"
        self._check_size(total)
        self._remember(response, total)
        self.resumed_from = have
        received = have
        self._samples = [(time.monotonic(), received)]
        self._reading = (received, total)
        try:
            with open(self.part, mode) as out:
                while True:
                    if self.cancelled:
                        raise self._cancel_error()
                    try:
                        chunk = response.read1(CHUNK)  # what has arrived: a stall loses nothing received
                    except (OSError, HTTPException, ValueError) as exc:
                        out.flush()
                        if self.cancelled:
                            raise self._cancel_error() from None
                        raise network_error(exc, self.timeout_s) from None
                    if not chunk:
                        break
                    out.write(chunk)
                    received += len(chunk)
                    if total is not None and received > total:
                        raise DownloadError("size", tr("The server sent more than the {total} bytes it announced.",
                                                       total=total))
                    self._reading = (received, total)
                    self._report(received, total)
                out.flush()
                os.fsync(out.fileno())
        except OSError as exc:
            raise DownloadError("disk", tr("Could not write {path}: {reason}", path=self.part, reason=exc),
                                tr("Free some disk space in the workspace, then get it again: the download "
                                   "resumes where it stopped.")) from None
        self._reading = None
        self._report(received, total, final=True)
        if total is not None and received < total:
            raise DownloadError("timeout", tr("The connection closed after {got} of {total} bytes.",
                                              got=received, total=total), retryable=True)
        return received

    # -- sizes ------------------------------------------------------------------------------------------
    def _check_size(self, total: int | None) -> None:
        if total is None:
            return
        if self.expected_size is not None and total != self.expected_size:
            raise DownloadError("size", tr("The server offers {got} bytes; the published size is {want}.",
                                           got=total, want=self.expected_size))
        if self.plausible is not None and not self.plausible[0] <= total <= self.plausible[1]:
            raise DownloadError("size", tr("The server offers {mb:.1f} MB, far from the {low:.0f}–{high:.0f} MB "
                                           "this checkpoint's published parameter count implies.",
                                           mb=total / 1e6, low=self.plausible[0] / 1e6, high=self.plausible[1] / 1e6))

    # -- the record beside the partial file ----------------------------------------------------------------
    def _remember(self, response: Any, total: int | None) -> None:
        validator = response.headers.get("ETag") or response.headers.get("Last-Modified") or ""
        if validator.startswith("W/"):
            validator = ""  # a weak ETag cannot guard a byte range
        self.meta.write_text(json.dumps({"url": self.url, "validator": validator, "total": total}), encoding="utf-8")

    def _read_meta(self) -> dict[str, Any]:
        try:
            data = json.loads(self.meta.read_text(encoding="utf-8"))
            return data if isinstance(data, dict) and data.get("url") == self.url else {}
        except (OSError, ValueError):
            return {}

    def _validator(self) -> str | None:
        return self._read_meta().get("validator") or None

    def _recorded_total(self) -> int | None:
        return _int(self._read_meta().get("total"))

    def _start_over(self) -> None:
        for path in (self.part, self.meta):
            try:
                path.unlink()
            except FileNotFoundError:
                pass

    # -- progress and cancel ---------------------------------------------------------------------------------
    def tick(self) -> None:
        """Report now when the last report is over ``STALE_REPORT_S`` old (call it from another thread, about
        once a second): while the server is silent the read loop cannot, and the bytes shown would lag behind
        the bytes received, with a speed that never falls."""
        reading = self._reading
        if reading is not None and time.monotonic() - self._last_report >= STALE_REPORT_S:
            self._report(*reading, final=True)

    def _report(self, received: int, total: int | None, final: bool = False) -> None:
        with self._report_lock:
            now = time.monotonic()
            if not final and now - self._last_report < PROGRESS_EVERY_S:
                return
            self._last_report = now
            self._samples.append((now, received))
            while len(self._samples) > 2 and now - self._samples[0][0] > SPEED_WINDOW_S:
                self._samples.pop(0)
            t0, b0 = self._samples[0]
            speed = (received - b0) / (now - t0) if now - t0 > 0.05 else None
            eta = (total - received) / speed if speed and total is not None else None
            if self.on_progress is not None:
                self.on_progress(Progress(received, total, speed, eta))

    def _check_cancel(self) -> None:
        if self.cancelled:
            raise self._cancel_error()

    def _cancel_error(self) -> DownloadError:
        return DownloadError("cancelled", tr("Download cancelled."),
                             tr("Get it again to resume from where it stopped."))


def _content_range(value: str) -> tuple[int | None, int | None]:
    """``bytes 100-199/200`` -> (100, 200); the total may be ``*`` (unknown)."""
    try:
        unit, _, rest = value.partition(" ")
        span, _, total = rest.partition("/")
        start = int(span.split("-")[0])
        return (start, None if total.strip() == "*" else int(total)) if unit == "bytes" else (None, None)
    except ValueError:
        return None, None


def _int(value: Any) -> int | None:
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def _shutdown(response: Any) -> None:
    """Wake a read blocked on a silent server: shut the socket down under it (http.client holds it as
    ``fp.raw._sock``; if that ever changes, the read still ends at ``timeout_s``)."""
    sock = getattr(getattr(getattr(response, "fp", None), "raw", None), "_sock", None)
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
