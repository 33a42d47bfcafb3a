"""How a Python file configures the things it declares, from the query's captures: a CLI
command's options (click's ``@click.option("--port", default=5000)``, typer's ``port: int =
typer.Option(5000, "--port")``) as ``config:<path>:<command>.<parameter>.<argument>``
(``main.port.default`` = 5000), and a middleware's (``app.add_middleware(CORSMiddleware,
allow_origins=[...])``) as ``config:<path>:<Middleware>.<argument>``; attrs ``option``.  Only
values (see _pyvalues.setting_value), never prose (an option's help is its facts' purpose)."""

from __future__ import annotations

import re

from repomem.core.model import Fact, file_setting
from repomem.miners._pysettings import call_options
from repomem.miners._pysource import MAX_TEXT_LINES, _render_literal, _Source, _string_value, _words
from repomem.miners._pyvalues import _args, setting_value


def _parameter(decls: list[str]) -> str | None:
    """The parameter click names an option by: its declaration without dashes, else its first
    long name (``--reload-dir`` -> ``reload_dir``), else its first short one."""
    plain = [d for d in decls if d.isidentifier()]
    if plain:
        return plain[0]
    dashed = sorted((d for d in decls if d.startswith("-")), key=lambda d: -len(d) + len(d.lstrip("-")))
    name = dashed[0].lstrip("-").split("/")[0] if dashed else ""
    name = re.sub(r"[^\w]", "_", name).lower()
    return name or None


def option_facts(src: _Source, path: str, option, function: str, parameter: str | None) -> list[Fact]:
    """The facts of one option declaration: its default (typer's first argument, or
    ``default=``) and its other keyword arguments."""
    pos, kw = _args(option)
    decls = [v for v in (_string_value(src, p) for p in pos) if v is not None]
    typer_style = parameter is not None
    if parameter is None:
        parameter = _parameter(decls)
    if parameter is None:
        return []
    target = f"{function}.{parameter}"
    help_node = kw.get("help")
    said = _string_value(src, help_node) if help_node is not None else None
    names = ", ".join(d for d in decls if d.startswith("-"))
    purpose = " - ".join(x for x in (f"{names or parameter} option of {function}()", said) if x)
    facts = []
    if typer_style and pos and "default" not in kw and src.text(pos[0]) != "...":
        got = setting_value(src, pos[0], _render_literal, _string_value)
        if got is not None:
            line = pos[0].start_point[0]
            facts.append(file_setting(
                path, f"{target}.default", got[0], line + 1,
                src.rows(line, min(pos[0].end_point[0], line + MAX_TEXT_LINES - 1)),
                f"default - of {target} - {purpose}", tuple(sorted({*got[1], ("option", "true")}))))
    return facts + call_options(src, option, path, target, purpose)


def middleware_facts(src: _Source, path: str, call, cls) -> list[Fact]:
    name = src.text(cls).rsplit(".", 1)[-1]
    return call_options(src, call, path, name, f"{' '.join(_words(name))} configuration")
