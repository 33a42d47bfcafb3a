"""The task benchmark's prompts and needed facts (``<repo>.json``, see README.md) and
:mod:`bench.tasks.derive`, which reads the facts' values from git (``python -m bench tasks-derive``)."""
