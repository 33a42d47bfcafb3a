"""A Chroma server as the store (issue 13): `--chroma URL` / $REPOMEM_CHROMA_URL.

Everything a store keeps lives on the server, in collections named from the repository's
identity (the normalised remote URL, or --name): `<repo>_versions` (the fact versions, as in the
embedded store), `<repo>_records` (one row per commit, id = the sha), `<repo>_meta` (id = the
name) and `<repo>_folds` (the fold state, in chunks).  Only a lock, the generation counter and
the current-view snapshot stay in a local cache folder: a fresh clone needs nothing else.

The server has no file lock.  What the local lock gives the embedded store (one writer) comes
from ids here: a record's id is its commit, so `put_records` adds only absent ids, two
publishers at once write the same rows, and a killed publisher leaves whole rows that the next
run skips.  See docs/server.md.

Here: which server, the repository's name on it, and its errors.  The record store on it is
repomem/chromarecords.py; what readers and the git hooks do with it, repomem/serverview.py.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from repomem.adapters import git
from repomem.core.errors import RepomemError
from repomem.core.model import short_hash

TOKEN_HEADER = "X-Chroma-Token"

@dataclass(frozen=True)
class Remote:
    url: str
    token: str | None
    name: str  # the repository identity; collections are named from it

    @property
    def prefix(self) -> str:
        """A valid Chroma collection name stem: readable, and unique by a hash of the name."""
        slug = re.sub(r"[^a-zA-Z0-9]+", "-", self.name).strip("-")[:40] or "repo"
        return f"rm-{slug}-{short_hash(self.name, n=8)}"

    def client(self):
        from repomem.storage.chromaimport import import_chromadb

        import_chromadb()  # ingest may be importing it in a thread (store.py)
        from chromadb.config import Settings

        parts = urlsplit(self.url if "://" in self.url else f"http://{self.url}")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise RepomemError(f"not a Chroma server URL: {self.url}",
                               hint="pass --chroma http://HOST:PORT (or set REPOMEM_CHROMA_URL)")
        headers = {TOKEN_HEADER: self.token} if self.token else None
        try:
            # chromadb.HttpClient with a bounded session: timeouts and a size cap on every call
            # (repomem/storage/bounded_http.py)
            from repomem.storage.bounded_http import BoundedClient

            client = BoundedClient(settings=Settings(
                chroma_api_impl="chromadb.api.fastapi.FastAPI",
                chroma_server_host=parts.hostname,
                chroma_server_http_port=parts.port or (443 if parts.scheme == "https" else 80),
                chroma_server_ssl_enabled=parts.scheme == "https", chroma_server_headers=headers,
                anonymized_telemetry=False))
            client.list_collections(limit=1)  # an authenticated call: a wrong token fails here
        except RepomemError:
            raise
        except Exception as e:
            raise explain_remote(e, self.url) from None
        return client


def explain_remote(exc: BaseException, url: str | None = None) -> RepomemError:
    """A failure of a call to the server as one line with a hint.  Never None: what is not a
    refused token or a lost connection is an answer repomem cannot read (malformed JSON, an
    HTML page, wrong types), which says so."""
    if isinstance(exc, RepomemError):
        return exc
    where = f"the Chroma server at {url}" if url else "the Chroma server"
    text = f"{type(exc).__name__}: {exc}".lower()
    if any(m in text for m in ("unauthorized", "forbidden", "401", "403", "authenticat")):
        return RepomemError(f"{where} refused the token",
                            hint="check REPOMEM_CHROMA_TOKEN (sent as the X-Chroma-Token header)")
    if "timeout" in text or "timed out" in text:
        return RepomemError(f"{where} did not answer in time",
                            hint="check the URL (--chroma / REPOMEM_CHROMA_URL) and that the "
                                 "server runs: curl URL/api/v2/heartbeat; "
                                 "REPOMEM_CHROMA_TIMEOUT=SECONDS allows a slower one")
    if any(m in text for m in ("connect", "connection refused", "name or service not known",
                               "nodename nor servname",
                               "temporary failure in name resolution", "remoteprotocolerror",
                               "bad gateway", "service unavailable", "502", "503")):
        return RepomemError(f"{where} is unreachable (no connection, or it broke off)",
                            hint="check the URL (--chroma / REPOMEM_CHROMA_URL) and that the "
                                 "server runs: curl URL/api/v2/heartbeat")
    detail = " ".join(str(exc).split())[:160]
    return RepomemError(f"{where} sent an answer repomem cannot read ({type(exc).__name__}"
                        f"{': ' + detail if detail else ''})",
                        hint="check that the URL is a Chroma 1.x server (curl "
                             "URL/api/v2/heartbeat), and any proxy in front of it")


def from_server(exc: BaseException) -> bool:
    """Whether exc was raised while talking to the server or reading its answer (chromadb's
    client, httpx, a JSON parser) rather than by repomem's own code: the CLI then reports it as
    the server's failure, not as a bug."""
    tb = exc.__traceback__
    last = None
    while tb is not None:
        last = tb.tb_frame.f_code.co_filename
        tb = tb.tb_next
    return last is not None and any(f"{os.sep}{lib}{os.sep}" in last
                                    for lib in ("chromadb", "httpx", "httpcore", "orjson", "json",
                                                "pydantic"))


def from_args(args, root) -> Remote | None:
    """The server asked for (--chroma, else $REPOMEM_CHROMA_URL), or None: the embedded store."""
    url = getattr(args, "chroma", None) or os.environ.get("REPOMEM_CHROMA_URL")
    if not url:
        return None
    name = getattr(args, "name", None) or os.environ.get("REPOMEM_NAME") or repo_identity(root)
    return Remote(url, os.environ.get("REPOMEM_CHROMA_TOKEN") or None, name)


def normalise_url(url: str) -> str:
    """git@github.com:Org/Repo.git, https://user@github.com/Org/Repo -> github.com/org/repo."""
    url = url.strip()
    m = re.match(r"^(?:[\w.-]+@)?([\w.-]+):(?!//)(.*)$", url)  # scp-like syntax
    if m and "://" not in url:
        host, path = m.group(1), m.group(2)
    else:
        parts = urlsplit(url)
        host, path = parts.hostname or "", parts.path
    path = re.sub(r"\.git/?$", "", path.strip("/"))
    return f"{host.lower()}/{path.lower()}".strip("/")


def repo_identity(root) -> str:
    url = git.config_get(root, "remote.origin.url")
    if not url:
        raise RepomemError("this repository has no remote 'origin' to name it on the server",
                           hint="pass --name NAME (the same in every clone), or set REPOMEM_NAME")
    return normalise_url(url)
