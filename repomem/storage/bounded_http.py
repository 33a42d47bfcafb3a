"""chromadb's HTTP client with bounds: connect and read timeouts, a deadline per request and a
cap on a response's size (repomem/storage/remote.py).

chromadb's own client (``chromadb.api.fastapi.FastAPI``) makes its httpx session with
``timeout=None`` and reads any response whole: a server that accepts the connection and never
answers hangs a command for ever, and a 100 MB answer is a gigabyte of memory once parsed.  This
client replaces the session (before any request is made) with one whose transport stops
reading at the cap and at the deadline."""

from __future__ import annotations

import time

import httpx
from chromadb.api.client import Client

from repomem.core.errors import RepomemError
from repomem.storage.serverlimits import CONNECT_S, max_response, read_timeout

HINT = ("check the URL (--chroma / REPOMEM_CHROMA_URL) and the server (curl URL/api/v2/heartbeat); "
        "REPOMEM_CHROMA_TIMEOUT=SECONDS allows a slower one")


class ResponseTooLarge(RepomemError):
    pass


class ResponseTooSlow(RepomemError):
    pass


class _Bounded(httpx.SyncByteStream):
    """A response body read up to the cap and the deadline, whichever comes first."""

    def __init__(self, inner: httpx.SyncByteStream, url: str, cap: int, deadline: float):
        self.inner, self.url, self.cap, self.deadline = inner, url, cap, deadline

    def __iter__(self):
        got = 0
        for chunk in self.inner:
            got += len(chunk)
            if got > self.cap:
                raise ResponseTooLarge(
                    f"the Chroma server at {self.url} sent a response over {self.cap} bytes",
                    hint="check that URL is a Chroma server; REPOMEM_CHROMA_MAX_RESPONSE=BYTES "
                         "raises the cap")
            if time.monotonic() > self.deadline:
                raise ResponseTooSlow(f"the Chroma server at {self.url} did not finish its "
                                      "response in time", hint=HINT)
            yield chunk

    def close(self) -> None:
        self.inner.close()


class _BoundedTransport(httpx.HTTPTransport):
    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = f"{request.url.scheme}://{request.url.netloc.decode()}"
        cap = max_response()
        resp = super().handle_request(request)
        size = resp.headers.get("content-length", "")
        if size.isdigit() and int(size) > cap:
            resp.close()
            raise ResponseTooLarge(f"the Chroma server at {url} sent a response of {size} bytes, "
                                   f"over the {cap}-byte cap",
                                   hint="check that URL is a Chroma server; "
                                        "REPOMEM_CHROMA_MAX_RESPONSE=BYTES raises the cap")
        assert isinstance(resp.stream, httpx.SyncByteStream)
        deadline = time.monotonic() + 4 * read_timeout()
        return httpx.Response(resp.status_code, headers=resp.headers,
                              stream=_Bounded(resp.stream, url, cap, deadline),
                              extensions=resp.extensions)


def _bound(server) -> None:
    """Give chromadb's FastAPI server object a bounded session (once)."""
    if getattr(server, "_repomem_bounded", False):
        return
    verify = server._settings.chroma_server_ssl_verify
    headers = server._session.headers
    server._session.close()
    server._session = httpx.Client(
        timeout=httpx.Timeout(read_timeout(), connect=CONNECT_S),
        headers=headers,
        transport=_BoundedTransport(limits=server.http_limits,
                                    **({"verify": verify} if verify is not None else {})))
    server._repomem_bounded = True


class BoundedClient(Client):
    """``chromadb.HttpClient`` on a bounded session (see the module docstring).  The session
    is replaced just before the client's first request (it asks who the caller is), so no
    request of chromadb's is ever sent unbounded."""

    def get_user_identity(self):
        _bound(self._server)
        try:
            return super().get_user_identity()
        except ValueError as e:  # chromadb wraps every failure here in a ValueError
            if isinstance(e.__context__, RepomemError):
                raise e.__context__ from None
            raise
