"""``frictionlab data list|show|path NAME``: the real datasets packaged in :mod:`frictionlab.datasets`.

Every name printed here is accepted by ``frictionlab fit`` wherever a CSV path is.
"""

from __future__ import annotations

import textwrap
from typing import Annotated

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the ``data`` command group to the frictionlab CLI."""
    data_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="Packaged real datasets: list, show (source and columns), path.")
    app.add_typer(data_app, name="data")

    @data_app.command("list")
    def data_list() -> None:
        """Every packaged dataset with the first sentence of its source header."""
        from ..datasets import columns, names, title

        for n in names():
            cols, rows = columns(n)
            typer.echo(n)
            text = title(n) + f". {rows} rows; columns: {', '.join(cols)}."
            typer.echo(textwrap.fill(text, width=100, initial_indent="    ", subsequent_indent="    ",
                                     break_on_hyphens=False))

    @data_app.command("show")
    def data_show(name: Annotated[str, typer.Argument(help="dataset name (see 'frictionlab data list')")]) -> None:
        """The dataset's source header (citation, licence, units), its columns and a fit hint."""
        from ..datasets import columns, header, path

        p = path(name)
        cols, rows = columns(name)
        typer.echo(f"{p.stem}  ({p})")
        typer.echo(header(name))
        typer.echo(f"\n{rows} rows; columns: {', '.join(cols)}")
        typer.echo(f"use: frictionlab fit MODEL {p.stem} --x COLUMN --y COLUMN")

    @data_app.command("path")
    def data_path(name: Annotated[str, typer.Argument(help="dataset name")]) -> None:
        """Print the file path of a packaged dataset (for scripts: pandas.read_csv(path, comment='#'))."""
        from ..datasets import path

        typer.echo(str(path(name)))
