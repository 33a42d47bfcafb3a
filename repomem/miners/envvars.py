"""Environment variables a program reads, wherever it reads them (a function body too):
``process.env.JWT_SECRET || 'x'``, ``process.env['PORT'] ?? 3000``, ``import.meta.env.VITE_API``
(JavaScript, TypeScript); ``os.environ.get("MAIL_SERVER", "localhost")``, ``os.getenv(...)``,
``os.environ["SECRET_KEY"]``, ``os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site.dev")``
(Python), as ``repomem.core.envreads`` finds them.

Each variable read in a file is ``config:<path>:env.<NAME>`` (its first read in the file), the
default as written -- ``None`` / ``undefined`` when there is none, ``<required>`` for
``os.environ["X"]``, ``<computed>`` for a default that is code (placeholders the redactor knows
are no secrets) -- with attrs ``env`` (the variable) and ``read``.  A read that is the value
of a setting of the same file (``MAIL_SERVER = os.environ.get('MAIL_SERVER')``, whose fact says
``env`` already) is left to that setting (see ``repomem.miners.mine_file``).  Not mined: test
files (they set variables, they do not configure the program), writes (``process.env.X = ...``),
comment lines, and a name that is not an environment variable's (``process.env[name]``).
"""

from __future__ import annotations

import re

from repomem.core.envreads import COMPUTED, REQUIRED, UNSET, reads
from repomem.core.model import CONFIG, Fact
from repomem.core.paths import is_test
from repomem.miners._text import words

_JS_FILES = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")
_COMMENT = re.compile(r"^\s*(?:#|//|/?\*)")


class EnvMiner:
    name = "envvars"

    def accepts(self, path: str) -> bool:
        return (path.endswith(".py") or path.endswith(_JS_FILES) and not path.endswith(".d.ts")) \
            and not is_test(path)

    def mine(self, path: str, text: str) -> list[Fact]:
        python = path.endswith(".py")
        found: dict[str, Fact] = {}
        for read in reads(text, python):
            if read.name in found:
                continue
            start = text.rfind("\n", 0, read.start) + 1
            end = text.find("\n", read.start)
            line = text[start:end if end >= 0 else len(text)]
            if _COMMENT.match(line):
                continue
            if read.computed:
                value = COMPUTED
            elif read.default is None:
                value = REQUIRED if read.required else UNSET[python]
            else:
                value = text[read.span[0]:read.span[1]] if read.default[:1] in "'\"`" else read.default
            found[read.name] = Fact(
                key=f"{CONFIG}:{path}:env.{read.name}", kind=CONFIG,
                subject=f"environment variable {read.name} read in {path}", value=value,
                attrs=(("env", read.name), ("read", "true")), path=path,
                line=text.count("\n", 0, read.start) + 1, text=line.strip(),
                purpose=f"{words(read.name)} - the environment variable {read.name}")
        return list(found.values())


MINER = EnvMiner()
