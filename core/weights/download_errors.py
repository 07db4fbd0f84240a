"""A weights download's failures: ``DownloadError`` (kind, words, a way out, retryable or not) and the words of
each HTTP and network failure, split from ``core.weights.download`` (which fetches) so each module does one job.
"""

from __future__ import annotations

import socket
import ssl
import urllib.error
import urllib.parse

from core.i18n import tr
from core.weights.catalog import OFFICIAL_BASE


class DownloadError(RuntimeError):
    """A download that failed, with its kind (``offline``, ``timeout``, ``not-found``, ``blocked``,
    ``certificate``, ``size``, ``refused``, ``cancelled``, ``http``, ``disk``), words and a way out."""

    def __init__(self, kind: str, message: str, hint: str = "", *, retryable: bool = False) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.hint = hint
        self.retryable = retryable



_PROXY_HINT = ("If this network needs a proxy, set HTTPS_PROXY (and NO_PROXY) in the environment YOLO Studio "
               "starts from; or download the file elsewhere and use Import.")


def http_error(exc: urllib.error.HTTPError) -> DownloadError:
    """An HTTP error answer in words: a missing file, a proxy that wants a password, a refusal, the rest."""
    code = exc.code
    if code == 404:
        return DownloadError("not-found", tr("{url} was not found on the server (HTTP 404).", url=exc.url),
                             tr("The release file may have moved: download it from the YOLOv5 release page "
                                "yourself and use Import."))
    if code == 407:
        return DownloadError("blocked", tr("The proxy asks for a user name and password (HTTP 407)."),
                             tr("Put them in HTTPS_PROXY (https://user:password@proxy:port), or download the "
                                "file elsewhere and use Import."))
    if code in (401, 403, 451):
        return DownloadError("blocked", tr("The download was refused (HTTP {code}): a firewall or proxy may be "
                                           "blocking github.com.", code=code), tr(_PROXY_HINT))
    retryable = code == 429 or code >= 500
    return DownloadError("http", tr("The server answered HTTP {code} {reason}.", code=code, reason=exc.reason),
                         tr("Try again later.") if retryable else "", retryable=retryable)


def network_error(exc: BaseException, timeout_s: float) -> DownloadError:
    """A network failure in words: a silent server, a certificate, no name resolution, a refusal, the rest."""
    reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
    if isinstance(reason, (socket.timeout, TimeoutError)):
        return DownloadError("timeout", tr("The server sent nothing for {seconds:g} s.", seconds=timeout_s),
                             tr("The network may be slow or blocked. If this network needs a proxy, set HTTPS_PROXY (and "
                                "NO_PROXY) in the environment YOLO Studio starts from; or download the file "
                                "elsewhere and use Import."), retryable=True)
    if isinstance(reason, ssl.SSLCertVerificationError):
        return DownloadError("certificate", tr("The server's certificate could not be verified ({reason}).",
                                               reason=reason.verify_message or reason),
                             tr("A network that inspects HTTPS needs its certificate: point SSL_CERT_FILE at your "
                                "organisation's CA bundle. Also check the computer's clock."))
    if isinstance(reason, socket.gaierror):
        return DownloadError("offline", tr("This computer is offline or cannot resolve {host}.",
                                           host=urllib.parse.urlsplit(OFFICIAL_BASE).hostname),
                             tr("Connect to the Internet and try again. If this network needs a proxy, set HTTPS_PROXY "
                                "(and NO_PROXY) in the environment YOLO Studio starts from; or download the file "
                                "elsewhere and use Import."))
    if isinstance(reason, ConnectionRefusedError):
        return DownloadError("blocked", tr("The connection was refused ({reason}).", reason=reason),
                             tr(_PROXY_HINT), retryable=True)
    return DownloadError("offline", tr("The connection failed: {reason}", reason=reason),
                         tr("Check the network connection and try again; the download resumes where it stopped."),
                         retryable=True)
