"""Read ``setup(...)`` keyword arguments out of a setup.py with ``ast`` -- never executing it.

Only literal values are understood, plus a name bound at module level to a literal
(``REQUIRES = [...]; setup(install_requires=REQUIRES)``), which covers most real setup.py files.
Anything computed is ignored rather than guessed.
"""

from __future__ import annotations

import ast

Item = tuple[str, int]  # a string and the line it is on


def _strings(node: ast.AST | None, names: dict[str, ast.AST]) -> list[Item] | None:
    if isinstance(node, ast.Name):
        node = names.get(node.id)
    if isinstance(node, (ast.List, ast.Tuple)):
        return [(e.value, e.lineno) for e in node.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        # a single string: setuptools also accepts a newline-separated block
        return [(s.strip(), node.lineno + i) for i, s in enumerate(node.value.splitlines())
                if s.strip()]
    return None


def _is_setup(call: ast.Call) -> bool:
    f = call.func
    return (isinstance(f, ast.Name) and f.id == "setup") or (
        isinstance(f, ast.Attribute) and f.attr == "setup")


def setup_keywords(text: str) -> dict:
    """``install_requires``/``classifiers`` -> [(str, line)], ``extras_require`` -> {group: [...]},
    ``python_requires`` -> (str, line).  Raises SyntaxError when the file does not parse."""
    tree = ast.parse(text)
    names: dict[str, ast.AST] = {}
    for stmt in tree.body:  # module-level NAME = <literal>
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            names[stmt.targets[0].id] = stmt.value
    out: dict = {}
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call) and _is_setup(n)):
        for kw in call.keywords:
            if kw.arg in ("install_requires", "classifiers"):
                items = _strings(kw.value, names)
                if items is not None:
                    out[kw.arg] = items
            elif kw.arg == "python_requires":
                v = names.get(kw.value.id) if isinstance(kw.value, ast.Name) else kw.value
                if isinstance(v, ast.Constant) and isinstance(v.value, str):
                    out["python_requires"] = (v.value, v.lineno)
            elif kw.arg == "extras_require":
                d = names.get(kw.value.id) if isinstance(kw.value, ast.Name) else kw.value
                if isinstance(d, ast.Dict):
                    groups = {}
                    for k, v in zip(d.keys, d.values):
                        items = _strings(v, names)
                        if isinstance(k, ast.Constant) and isinstance(k.value, str) and items is not None:
                            groups[k.value] = items
                    out["extras_require"] = groups
    return out
