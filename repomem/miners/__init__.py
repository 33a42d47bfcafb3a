"""Miners turn one file's text into facts.  They never call git or Chroma.

Each miner module exposes ``MINER``, an object meeting :class:`Miner`; ``ALL_MINERS`` below is the
one registry.  Several miners may accept one file (``pyproject.toml`` has settings *and*
dependencies); their facts are concatenated.  A miner that cannot parse a file raises
:class:`MineError`: the caller then keeps the file's earlier facts (a broken intermediate commit
must not retire anything).

Before any miner runs, the file's text is redacted (``secrets.redact_blob``: same line numbers),
so values, source texts, purposes and function fingerprints are all computed from redacted text;
each fact is redacted once more on the way out.  Work per file is bounded: at most
``MAX_FACTS_PER_FILE`` facts (more is a logged skip, earlier facts kept), and a fact's text,
purpose and value are bounded excerpts, never a whole minified line.
"""

from __future__ import annotations

import dataclasses

from repomem.core.model import Fact
from repomem.miners._base import (
    MAX_FACTS_PER_FILE,
    MAX_FILE_BYTES,
    MAX_PURPOSE,
    MAX_TEXT,
    MAX_VALUE,
    MineError,
    Miner,
    excerpt,
    too_many,
)

# Bump when what a miner (or the redactor) emits for the same blob changes: stores whose
# records were mined by an older version say so and suggest `repomem rebuild`.  What each
# version changed is listed in CHANGELOG.md ("Miners versions").
MINERS_VERSION = 34

__all__ = ["MAX_FACTS_PER_FILE", "MAX_FILE_BYTES", "MAX_PURPOSE", "MAX_TEXT", "MAX_VALUE", "MINERS_VERSION",
           "MineError", "Miner", "all_miners", "excerpt", "mine_file", "redact_stored", "register_miner",
           "too_many", "wants"]


# Miners by name: the built-ins, then third-party ones (entry points of the group below, e.g.
# ``[project.entry-points."repomem.miners"] toml-extra = "pkg.module:MINER"``), then those given to
# register_miner.  A later one of the same name replaces an earlier one.
ENTRY_POINT_GROUP = "repomem.miners"
REGISTERED: dict[str, Miner] = {}


def register_miner(miner: Miner) -> None:
    """Add a miner (or replace the one of the same ``name``) for every file mined from now on."""
    global _MINERS
    REGISTERED[miner.name] = miner
    _MINERS = None


def _registry() -> list[Miner]:
    from importlib.metadata import entry_points

    from repomem.miners import config, deps, docker, envvars, gradle, manifests, maven, properties, python
    from repomem.miners.lang import walker

    miners: dict[str, Miner] = {m.name: m for m in (python.MINER, config.MINER, deps.MINER, docker.MINER, walker.MINER,
                                  manifests.MINER, envvars.MINER, maven.MINER, gradle.MINER,
                                  properties.MINER)}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            miners[ep.name] = ep.load()
        except Exception as e:  # a broken plugin: one line naming it, not a traceback
            from repomem.core.errors import RepomemError

            raise RepomemError(f"miner {ep.name!r} ({ep.value}) failed to load: {e}",
                               hint="reinstall or remove the package that provides it") from None
    miners.update(REGISTERED)
    return list(miners.values())


_MINERS: list[Miner] | None = None


def all_miners() -> list[Miner]:
    global _MINERS
    if _MINERS is None:
        _MINERS = _registry()
    return _MINERS


# The miners that accept a path, by path: a history asks about the same few hundred paths for
# every commit that touches them (~5 asks each: which blobs to read ahead, which to mine, which
# old versions to read back), and each miner's ``accepts`` splits and matches the path again.
# Valid for one list of miners (a new registration builds a new list).
_ACCEPTING: dict[str, tuple[Miner, ...]] = {}
_ACCEPTING_FOR: list = []


def accepting(path: str) -> tuple[Miner, ...]:
    global _ACCEPTING_FOR
    miners = all_miners()
    if miners is not _ACCEPTING_FOR or len(_ACCEPTING) >= 50_000:
        _ACCEPTING.clear()
        _ACCEPTING_FOR = miners
    got = _ACCEPTING.get(path)
    if got is None:
        got = _ACCEPTING[path] = tuple(m for m in miners if m.accepts(path))
    return got


def wants(path: str) -> bool:
    """True when some miner reads this path (cheap: decides which blobs git must hand over)."""
    return bool(accepting(path))


def _bounded(f: Fact) -> Fact:
    if len(f.text) <= MAX_TEXT and len(f.purpose) <= MAX_PURPOSE and len(f.value) <= MAX_VALUE:
        return f
    from repomem.core.model import short_hash

    value = f.value
    if len(value) > MAX_VALUE:
        value = value[:MAX_VALUE] + f"…<{len(value)} chars, sha1 {short_hash(value)}>"
    return dataclasses.replace(f, value=value, text=excerpt(f.text, f.value),
                               purpose=excerpt(f.purpose, "", MAX_PURPOSE))


def _clean(s: str) -> str:
    return s.encode("utf-8", "backslashreplace").decode("utf-8")


def _encodable(f: Fact) -> Fact:
    """A parser may decode an escape into a lone surrogate (JSON's ``"\\ud800"``), which no
    UTF-8 store or terminal accepts: such characters are kept as their ``\\udXXX`` escape."""
    try:
        "".join((f.key, f.value, f.text, f.purpose, f.subject, f.anchor or "",
                 *(x for a in f.attrs for x in a))).encode("utf-8")
        return f
    except UnicodeEncodeError:
        return dataclasses.replace(
            f, key=_clean(f.key), value=_clean(f.value), text=_clean(f.text),
            purpose=_clean(f.purpose), subject=_clean(f.subject),
            anchor=_clean(f.anchor) if f.anchor is not None else None,
            attrs=tuple((_clean(k), _clean(v)) for k, v in f.attrs))


def is_code(path: str) -> bool:
    """Source of a language the miners parse: the redactor reads it as code (only quoted values
    of secret-named assignments; an unquoted one is an expression, and replacing it, or half of a
    raw string, would break the syntax and lose every fact of the file)."""
    from repomem.miners.lang import EXTENSIONS

    base = path.rsplit("/", 1)[-1]
    dot = base.rfind(".")
    return dot > 0 and (base[dot:].lower() in EXTENSIONS or base[dot:] in (".py", ".pyi"))


def mine_file(path: str, data: bytes) -> list[Fact]:
    """All facts of one file version, secrets redacted.  Raises MineError when it can't be read."""
    from repomem.core.secrets import redact_blob, redact_fact

    if len(data) > MAX_FILE_BYTES:
        raise MineError(f"{len(data)} bytes is over the {MAX_FILE_BYTES}-byte limit")
    if b"\x00" in data[:8192]:
        raise MineError("binary file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise MineError(f"not UTF-8 ({e.reason} at byte {e.start})") from None
    miners = accepting(path)
    if not miners:
        return []
    text = redact_blob(text, code=is_code(path))
    facts: list[Fact] = []
    try:
        for miner in miners:
            facts.extend(miner.mine(path, text))
            if len(facts) > MAX_FACTS_PER_FILE:
                raise too_many(len(facts))
    except RecursionError:  # a parser's own recursion (tomllib on `a = [[[[...`)
        raise MineError("too deeply nested to parse") from None
    return [_finish(f, redact_fact) for f in _without_settled_reads(facts)]


_READ = ("read", "true")


def _without_settled_reads(facts: list[Fact]) -> list[Fact]:
    """An environment variable's read (envvars) gives way to the setting of the same file whose
    value it is (``MAIL_SERVER = os.environ.get('MAIL_SERVER')``: attrs ``env`` of that one)."""
    if not any(_READ in f.attrs for f in facts):
        return facts
    settled = {v for f in facts if _READ not in f.attrs for k, v in f.attrs if k == "env"}
    if not settled:
        return facts
    return [f for f in facts if _READ not in f.attrs or dict(f.attrs)["env"] not in settled]


# Most facts of a file version are the facts of its previous version (a commit changes a few
# functions of a file), and bounding, encoding and redacting a fact depend on the fact alone:
# the finished fact is memoised by the mined one, less its line (finishing never reads it, and
# an edit above a function moves every fact below it).  A hit returns the mined fact itself
# when finishing changed nothing (almost always), else the finished one carrying this fact's
# own line and fingerprint.  Cleared when full (a few MB).
_FINISHED: dict = {}
_FINISHED_MAX = 20_000
_SAME = object()  # finishing returned the fact itself


def _finish(f: Fact, redact_fact) -> Fact:
    # keyed by the compared fields, not the fact: a fact holds its fingerprint's source bytes
    k = (f.key, f.kind, f.subject, f.value, f.path, f.text, f.purpose, f.attrs, f.anchor,
         f.is_set)
    try:
        done = _FINISHED.get(k)
    except TypeError:  # an unhashable attribute value: finish it every time
        return redact_fact(_bounded(_encodable(f)))
    if done is _SAME:
        return f
    if done is not None:
        return dataclasses.replace(done, line=f.line, fingerprint=f.fingerprint)
    done = redact_fact(_bounded(_encodable(f)))
    if len(_FINISHED) >= _FINISHED_MAX:
        _FINISHED.clear()
    _FINISHED[k] = _SAME if done is f else done
    return done


def redact_stored(rec):
    """A stored commit record passed through the current redactor and bounds (for a commit that
    can no longer be re-mined because git no longer has it)."""
    from repomem.core.secrets import redact_fact

    rec.files = {p: [redact_fact(_bounded(f)) for f in fs] for p, fs in rec.files.items()}
    return rec
