"""The real-history benchmark's ground truth, read from git alone: nothing here imports repomem
(bench/README.md describes each module; ``python -m bench truth-generate`` writes bench/realrepos)."""
