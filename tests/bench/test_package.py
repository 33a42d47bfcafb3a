"""The benchmarks are a package of the checkout (``python -m bench COMMAND``), never of the product:
the wheel's package discovery finds no ``bench`` module, ``repomem --help`` names no benchmark
command, and ``python -m bench`` lists its commands, runs a script by its command name, and turns
an unknown command into one line."""

from __future__ import annotations

import subprocess
import sys
import tomllib

from tests.conftest import ROOT, bench_cli, cli


def test_the_wheel_holds_the_product_only():
    """setuptools' own discovery with pyproject.toml's settings (``packages.find`` in a
    pyproject is the namespace-aware finder), as the wheel build runs it."""
    from setuptools import find_namespace_packages

    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    packages = find_namespace_packages(where=str(ROOT), include=find["include"],
                                       exclude=find.get("exclude", ()))
    assert "repomem" in packages and "repomem.adapters" in packages and "repomem.cli.commands" in packages
    assert [p for p in packages if p != "repomem" and not p.startswith("repomem.")] == []
    assert not (ROOT / "repomem" / "bench").exists()
    # the benchmark it once held is found by name from the adapters (an option of init)
    from importlib.metadata import entry_points

    (ep,) = [e for e in entry_points(group="repomem.embedders") if e.name == "minilm-l6-v2-numpy"]
    assert ep.value == "repomem.adapters.minilm:embedder"


def test_repomem_has_no_benchmark_command():
    rc, out, _ = cli("--help")
    assert rc == 0 and "init" in out and "ask" in out
    assert "bench" not in out.lower()
    rc, _, err = cli("bench", "--quick", check=False)
    assert rc != 0 and "invalid choice: 'bench'" in err


def test_python_m_bench_help_from_a_checkout():
    proc = subprocess.run([sys.executable, "-m", "bench", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    names = [line.split()[0] for line in proc.stdout.splitlines() if line.startswith("  ")]
    for name in ("stale", "real", "tasks", "speed", "first-answer", "hook-latency", "ingest-floor",
                 "truth-generate", "fit-ranker"):
        assert name in names, proc.stdout
    # every command listed leads to a module that exists; the tests import the same package
    # (a test folder named bench that is a package must not shadow it)
    import bench
    from bench import cli as bench_cli_module

    assert bench.__file__ == str(ROOT / "bench" / "__init__.py")

    for module in [*bench_cli_module.SCRIPTS.values(), *bench_cli_module.GENERATORS.values()]:
        assert ROOT.joinpath(*module.split(".")).with_suffix(".py").is_file(), module


def test_a_script_runs_by_its_command_name_with_its_own_arguments():
    rc, out, _ = bench_cli("rename-links", "--help")
    assert rc == 0 and out.startswith("usage: python -m bench rename-links") and "--links" in out
    rc, out, _ = bench_cli("real", "--help")
    assert rc == 0 and "--split" in out and "--quick" in out


def test_an_unknown_command_is_one_line(tmp_path):
    rc, out, err = bench_cli("no-such-benchmark", check=False)
    assert rc == 1 and out == ""
    assert err.splitlines() == ["bench: error: no benchmark command 'no-such-benchmark'",
                                "hint: see 'python -m bench --help'"]


def test_every_benchmark_command_the_documentation_names_exists():
    import re

    from bench import cli as bench_cli_module

    known = {*bench_cli_module.REPORTS, *bench_cli_module.SCRIPTS, *bench_cli_module.GENERATORS}
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted(ROOT.glob("bench/**/*.md")),
             ROOT / "sample_repos" / "README.md"]
    named = {(page.name, m) for page in pages
             for m in re.findall(r"python -m bench ([a-z][a-z-]*)", page.read_text().replace("\n", " "))}
    assert {m for _, m in named} >= {"stale", "real", "tasks", "hook-latency", "truth-generate"}
    assert sorted((page, m) for page, m in named if m not in known) == []
    # and no page still names the command or the folders the benchmarks left
    stale = [(page.name, m) for page in pages
             for m in re.findall(r"repomem bench\b|benchmarks/\w+\.py|repomem/bench\b", page.read_text())]
    assert stale == []
