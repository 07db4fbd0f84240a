"""A release server on 127.0.0.1 for the weights tests: files, Range, ETag/If-Range, redirects, 404, a
connection dropped mid-file, a server that stalls. No Internet is needed (or reachable) in the tests.

Usage::

    with ReleaseServer({"yolov5s.pt": data}) as server:
        monkeypatch.setenv(TEST_BASE_ENV, server.base)   # core.weights.download honours loopback only
        server.drop_after["yolov5s.pt"] = 1000            # the first response closes after 1000 bytes
"""

from __future__ import annotations

import hashlib
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class ReleaseServer:
    def __init__(self, files: dict[str, bytes] | None = None) -> None:
        self.files: dict[str, bytes] = dict(files or {})
        self.redirects: dict[str, str] = {}  # name -> path it redirects to (on this server)
        self.drop_after: dict[str, int] = {}  # name -> the next response closes after this many bytes (once)
        self.stall_after: dict[str, int] = {}  # name -> every response goes silent after this many bytes
        self.honour_range = True
        self.requests: list[dict[str, Any]] = []  # {"path", "range", "if_range"} per GET
        self.released = threading.Event()  # ends every stall (at shutdown)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/releases/"

    def url(self, name: str) -> str:
        return self.base + name

    def __enter__(self) -> ReleaseServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.released.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    def etag(self, name: str) -> str:
        return '"' + hashlib.sha1(self.files[name]).hexdigest() + '"'

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                server.requests.append({"path": self.path, "range": self.headers.get("Range"),
                                        "if_range": self.headers.get("If-Range")})
                name = self.path.rsplit("/", 1)[-1]
                if name in server.redirects:
                    self.send_response(302)
                    self.send_header("Location", server.redirects[name])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                data = server.files.get(name)
                if data is None:
                    body = b"Not Found"
                    self.send_response(404)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                start = 0
                wanted = self.headers.get("Range")
                if_range = self.headers.get("If-Range")
                if wanted and server.honour_range and (if_range is None or if_range == server.etag(name)):
                    start = int(wanted.removeprefix("bytes=").split("-")[0])
                    if start >= len(data):
                        self.send_response(416)
                        self.send_header("Content-Range", f"bytes */{len(data)}")
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                else:
                    self.send_response(200)
                body = data[start:]
                self.send_header("Content-Length", str(len(body)))
                self.send_header("ETag", server.etag(name))
                self.send_header("Connection", "close")
                self.end_headers()
                drop = server.drop_after.pop(name, None)
                stall = server.stall_after.get(name)
                cut = min(x for x in (drop, stall, len(body)) if x is not None)
                self.wfile.write(body[:cut])
                self.wfile.flush()
                if cut == len(body):
                    return
                if stall is not None and cut == stall:
                    server.released.wait(30)
                self.close_connection = True  # dropped: the client sees fewer bytes than announced

        return Handler
