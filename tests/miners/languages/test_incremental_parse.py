"""A path's next version is parsed from its previous tree (miners.lang.parse): every version's
facts must be those of a fresh parse, whatever the edit (in the middle, at either end, a line
gained or lost, multi-byte text before it, a file emptied and refilled, a syntax error between)."""

from __future__ import annotations

import dataclasses

import pytest

from repomem.miners import MineError, lang, mine_file

PY = [
    "import os\n\nPORT = 8000\n\n\ndef serve(host='localhost'):\n    return run(host, PORT)\n",
    "import os\n\nPORT = 8080\n\n\ndef serve(host='localhost'):\n    return run(host, PORT)\n",
    "# é café\nimport os\n\nPORT = 8080\n\n\ndef serve(host='0.0.0.0', port=PORT):\n    return run(host, port)\n",
    "# é café\nimport os\n\nPORT = 8080\n\n\nclass App:\n    debug = False\n\n    def serve(self):\n"
    "        return 1\n",
    "# é café\nimport os\n\nPORT = 8080\n\n\nclass App:\n    debug = False\n\n    def serve(self:\n",
    "# é café\nimport os\n\nPORT = 8080\n\n\nclass App:\n    debug = True\n\n    def serve(self):\n"
    "        return 1\n\n    def stop(self):\n        pass\n",
    "def only():\n    pass\n",
    "",
    "TIMEOUT = 30\n\n\ndef only():\n    pass\n",
]
JS = [
    "const PORT = 3000;\nfunction serve(app) { return app.listen(PORT); }\n",
    "const PORT = 3000;\n// listen\nfunction serve(app, port) { return app.listen(port || PORT); }\n",
    "const PORT = 4000;\nfunction serve(app, port) { return app.listen(port); }\nmodule.exports = serve;\n",
]


def _facts(path: str, text: str):
    try:
        return [dataclasses.replace(f, fingerprint=str(f.fingerprint)) for f in mine_file(path, text.encode())]
    except MineError as e:
        return str(e)


@pytest.mark.parametrize("path,versions", [("pkg/app.py", PY), ("src/app.js", JS)])
def test_each_version_mined_as_by_a_fresh_parse(path, versions):
    lang._TREES.clear()
    incremental = [_facts(path, v) for v in versions + versions[::-1]]
    fresh = []
    for v in versions + versions[::-1]:
        lang._TREES.clear()
        fresh.append(_facts(path, v))
    assert incremental == fresh
    assert any(isinstance(f, str) for f in fresh) == (path.endswith(".py"))  # the broken version


def test_common_prefix_and_suffix():
    a, b = b"abcXYZdef", b"abcQdef"
    assert lang._common_prefix(a, b, 7) == 3
    assert lang._common_suffix(a, b, 7 - 3) == 3
    assert lang._common_prefix(b"same", b"same", 4) == 4
    assert lang._common_suffix(b"aaa", b"aaaa", 3) == 3
    assert lang._point(b"ab\ncd\nef", 7) == (2, 1)
