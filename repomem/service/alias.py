"""Words the repository's own text ties to a setting it does not name: a vocabulary bridge.

A command-line option's help ("--host ... Bind socket to this host", kept in the purpose of the
option's default, ``main.host.default``) says in words what the setting of the same name is for,
wherever else it is set: ``Config.host`` is the address the server binds, though neither its
name nor its line says "bind".  Each setting or constant whose own name is an option's name gets
the words of that option's help as its aliases; ``alias_rrf`` (features._features) ranks the facts
by the question's words among their aliases (each word weighted by how few facts it is an alias
of).  The option's own default is left out: its purpose, help included, is indexed already.

Built from the current rows on the first question that needs it and kept with them.
"""

from __future__ import annotations

import math
from typing import Any

from repomem.core.tokens import lexical_tokens, norm_ident
from repomem.service.lexical import own_names
from repomem.service.naming import kept_with_rows
from repomem.storage.store import stored_pair

_OPTION = stored_pair("option")
_OWNED = ("config", "constant")
RARE = 2  # an option's name names a setting elsewhere when at most this many bear it
_VAGUE = frozenset(lexical_tokens("default option value set use"))  # said of any option


def _help(purpose: str) -> str:
    """An option default's help, from its purpose (``default - of main.host - --host option of
    main() - Bind socket to this host.``): what follows the part saying which option it is."""
    parts = purpose.split(" - ")
    for k, part in enumerate(parts):
        if " option of " in part:
            return " - ".join(parts[k + 1:])
    return ""


def _option_words(rows: list[dict]) -> dict[str, set[str]]:
    """Option name (normalised) -> the words of its help."""
    out: dict[str, set[str]] = {}
    for row in rows:
        attrs = row.get("attrs")
        if row["kind"] != "config" or not isinstance(attrs, str) or _OPTION not in attrs:
            continue
        parts = own_names(row["key"])[0].split(".")
        said = _help(row.get("purpose") or "")
        if len(parts) >= 2 and said:  # (the option's and its command's names are no aliases:
            # the question says them of the option itself)
            own = {t for p in parts[:-1] for t in lexical_tokens(p.replace("_", " "))}
            out.setdefault(norm_ident(parts[-2]), set()).update(set(lexical_tokens(said)) - own)
    return out


@kept_with_rows
def index(facts) -> dict[str, tuple[list[int], float]]:
    """Alias word -> (the rows it is an alias of, its weight: the log of how rare it is)."""
    rows = facts.rows
    words = _option_words(rows)
    named: dict[str, list[int]] = {}
    for i, row in enumerate(rows) if words else ():
        attrs = row.get("attrs")
        if row["kind"] in _OWNED and not (isinstance(attrs, str) and _OPTION in attrs):
            named.setdefault(norm_ident(own_names(row["key"])[1]), []).append(i)
    by_word: dict[str, list[int]] = {}
    for name, said in words.items():
        # a name several settings bear (name, output, title) is no one setting's
        if 0 < len(named.get(name, ())) <= RARE:
            for w in said - _VAGUE:
                by_word.setdefault(w, []).extend(named[name])
    n = sum(len(v) for v in by_word.values()) or 1
    return {w: (v, math.log(1 + n / len(v))) for w, v in by_word.items()}


def scores(facts, words) -> Any:
    """Per row, the summed weights of the question's WORDS (lexical tokens) among its aliases."""
    import numpy as np

    out = np.zeros(len(facts.rows), dtype=np.float64)
    known = index(facts)
    for w in sorted(words):
        rows, weight = known.get(w, ((), 0.0))
        out[list(rows)] += weight
    return out
