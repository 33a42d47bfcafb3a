"""``repomem bench``: the stale-fact benchmark against RAG baselines, and the performance benchmark.

- :mod:`repomem.bench.stale`: the scenario suite (``sample_repos/scenarios/suite.py``) under
  several ingestion conditions, answered by plain RAG, RAG with dates and repomem on the same
  Chroma engine with the same embedder.
- :mod:`repomem.bench.perf`: a generated repository of thousands of commits (``git fast-import``),
  ingestion time/RSS against ``git log -p --first-parent``, incremental ingestion, ``ask`` latency.
- :mod:`repomem.bench.report`: the Markdown table, the JSON and the PNG chart.

Nothing here downloads anything; a semantic embedder is used only when its weights are installed.
"""
