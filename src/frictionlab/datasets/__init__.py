"""Byte-identical copies of the project's real datasets (``../shared/data``), shipped with the
package so that the data-fit scenarios, ``frictionlab fit`` and the README examples run on a
machine without the shared folder.

Each file keeps its original header naming its source and licence; none is modified
(``tests/unit/test_datasets.py`` checks that they equal the shared originals when present).
A dataset is named by its file stem (``rsf_velstep_basalt_brava_b819_3to10ums``) or file
name; :func:`resolve` turns a name or a path into a path (``frictionlab data list|show|path``).
"""

from __future__ import annotations

import re
from pathlib import Path

from ..core.errors import DataError, suggest

DATASET_DIR = Path(__file__).resolve().parent

__all__ = ["DATASET_DIR", "names", "path", "header", "title", "columns", "resolve"]


def _hint(stem: str, known: list[str]) -> str:
    """"did you mean" by spelling, else by substring (``pstar`` -> the PSTAR table)."""
    close = suggest(stem, known)
    if close:
        return close
    hits = [k for k in known if stem.lower() in k.lower()]
    return f" (did you mean {' or '.join(repr(h) for h in hits[:3])}?)" if hits and stem else ""


def names() -> list[str]:
    """Sorted names (file stems) of the packaged datasets."""
    return sorted(p.stem for p in DATASET_DIR.glob("*.csv"))


def path(name: str) -> Path:
    """Path of packaged dataset ``name`` (stem or file name); :class:`DataError` if unknown."""
    stem = name[:-4] if name.endswith(".csv") else name
    known = names()
    if stem not in known:
        raise DataError(f"no packaged dataset {name!r}{_hint(stem, known)}; 'frictionlab data list' shows them")
    return DATASET_DIR / f"{stem}.csv"


def header(name: str) -> str:
    """The leading ``#`` comment block of dataset ``name`` (its source, licence, columns), uncommented."""
    lines = []
    with path(name).open(encoding="utf-8") as fh:
        for line in fh:
            if not line.startswith("#"):
                break
            lines.append(line[1:].strip())
    return "\n".join(lines)


def title(name: str) -> str:
    """The first sentence of dataset ``name``'s header (not cut at initials such as "Ladson, C." or "et al.")."""
    text = " ".join(header(name).split("\n\n", 1)[0].split())
    return re.split(r"(?<![A-Z])(?<!\bal)(?<!\bNo)(?<!Fig)(?<!Eq)\.\s+(?=[A-Z(\[])", text, maxsplit=1)[0].rstrip(".")


def columns(name: str) -> tuple[list[str], int]:
    """``(column names, number of data rows)`` of dataset ``name``."""
    cols: list[str] | None = None
    n = 0
    with path(name).open(encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            if cols is None:
                cols = [c.strip() for c in line.split(",")]
            else:
                n += 1
    return cols or [], n


def resolve(name_or_path: str | Path) -> Path:
    """An existing file path as given, else the packaged dataset of that name.

    A path that exists wins over a dataset of the same name; neither is a :class:`DataError`
    naming the closest dataset.
    """
    p = Path(name_or_path)
    if p.is_file():
        return p
    text = str(name_or_path)
    stem = p.name[:-4] if p.name.endswith(".csv") else p.name
    if stem in names() and (p.parent == Path(".") or not p.parent.exists()):
        return DATASET_DIR / f"{stem}.csv"
    raise DataError(f"data file {text!r} does not exist and is not a packaged dataset{_hint(stem, names())}; "
                    "'frictionlab data list' shows them")
