"""repomem: the current truth about a git repository, and its dated history, for coding agents."""


def version() -> str:
    """The installed distribution's version (pyproject.toml's, through its metadata): what
    ``repomem --version`` prints and the MCP server reports."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("repomem")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"
