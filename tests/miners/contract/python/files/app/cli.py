import click
import typer


@click.command()
@click.option("--host", default="127.0.0.1", help="Bind socket to this host.")
@click.option("--port", "-p", type=int, default=5000, show_default=True)
def run(host, port):
    """Run the server."""


def serve(workers: int = typer.Option(4, "--workers", envvar="WORKERS")):
    """Serve with WORKERS processes."""
