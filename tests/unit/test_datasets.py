"""The packaged datasets are unmodified copies of the shared originals."""

from pathlib import Path

import pytest

from frictionlab.datasets import DATASET_DIR
from frictionlab.fit.data import find_data_file

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
NAMES = sorted(p.name for p in DATASET_DIR.glob("*.csv"))


def test_every_dataset_is_packaged_and_found():
    assert len(NAMES) == 8
    for name in NAMES:
        assert find_data_file(name).is_file()


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared data folder is not beside this checkout")
@pytest.mark.parametrize("name", NAMES)
def test_packaged_copy_is_byte_identical(name):
    assert (DATASET_DIR / name).read_bytes() == (SHARED / name).read_bytes()
