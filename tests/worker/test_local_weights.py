"""The worker's local-only weights lookup takes a path exactly as given (no quote stripping)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.worker.compat import local_weights


@pytest.mark.parametrize("name", ["o'brien", "it's 'quoted'", " padded "])
def test_a_weights_file_whose_folder_has_an_apostrophe_or_spaces_is_found(tmp_path, name):
    weights = tmp_path / name / "last.pt"
    weights.parent.mkdir()
    weights.write_bytes(b"x")
    assert local_weights(weights) == str(weights)
    assert local_weights(str(weights)) == str(weights)


def test_a_missing_file_is_named_as_given(tmp_path):
    missing = tmp_path / "o'brien" / "best.pt"
    with pytest.raises(FileNotFoundError, match="o'brien"):
        local_weights(str(missing))
