"""repomem's benchmarks: a package of the checkout, never of the wheel (``python -m bench``).

- :mod:`bench.cli`: the command line, ``python -m bench COMMAND [ARGS]``.
- :mod:`bench.stale`, :mod:`bench.perf`, :mod:`bench.report`: the stale-fact suite
  (``sample_repos/scenarios/suite.py``) under several ingestion conditions, answered by plain RAG,
  RAG with dates and repomem on the same Chroma engine with the same embedder; a generated
  repository of thousands of commits (``git fast-import``); the Markdown table, JSON and chart.
- :mod:`bench.real`, :mod:`bench.realstore`, :mod:`bench.realjudge`, :mod:`bench.realreport`:
  the real-history benchmark over the questions of ``bench/realrepos``.
- :mod:`bench.taskbench`, :mod:`bench.taskjudge`, :mod:`bench.taskreport`: the task benchmark
  over the prompts of ``bench/tasks``.
- :mod:`bench.speed`, :mod:`bench.hooks` and the one-figure scripts (``first_answer``,
  ``hook_latency``, ...): speed, latency and cost.
- :mod:`bench.realtruth`: the ground truth, read from git alone (imports nothing from repomem).
- :mod:`bench.fit_ranker`: fits the ranking weights on the training repositories.

Nothing here downloads anything; a semantic embedder is used only when its weights are installed.
"""
