"""Byte-identical copies of the project's real datasets (``../shared/data``), shipped with the
package so that the data-fit scenarios run on a machine without the shared folder.

Each file keeps its original header naming its source and licence; none is modified
(``tests/unit/test_datasets.py`` checks that they equal the shared originals when present).
"""

from pathlib import Path

DATASET_DIR = Path(__file__).resolve().parent

__all__ = ["DATASET_DIR"]
