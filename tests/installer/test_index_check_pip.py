"""pip itself, on a local index (file://, no network): the dry run ``index_check`` builds answers "Would install"
for a build the index serves and "No matching distribution" for one it does not — also when the wheel exists
only for another Python, and when a pip constraint file turns the refusal into a ResolutionImpossible."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from core.install.index_check import answer, check_argv, why


def _wheel(folder: Path, name: str, version: str, tag: str = "py3-none-any") -> None:
    dist = f"{name}-{version}.dist-info"
    files = {f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
             f"{dist}/WHEEL": f"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: {tag}\n"}
    folder.mkdir(parents=True, exist_ok=True)
    filename = f"{name}-{version}-{tag}.whl"
    with zipfile.ZipFile(folder / filename, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
        archive.writestr(f"{dist}/RECORD", "".join(f"{p},,\n" for p in files) + f"{dist}/RECORD,,\n")
    index = folder / "index.html"
    index.write_text((index.read_text() if index.exists() else "") + f'<a href="{filename}">{filename}</a>\n')


@pytest.fixture
def index(tmp_path: Path) -> Path:
    """A mirror laid out like PyTorch's: cu126/ serves 2.14.1+cu126; cu130/ serves nothing; cu132/ only a wheel
    for a Python that does not exist (cp399)."""
    _wheel(tmp_path / "cu126" / "torch", "torch", "2.14.1+cu126")
    _wheel(tmp_path / "cu126" / "torchvision", "torchvision", "0.29.1+cu126")
    for name in ("torch", "torchvision"):
        (tmp_path / "cu130" / name).mkdir(parents=True)
        (tmp_path / "cu130" / name / "index.html").write_text("")
    _wheel(tmp_path / "cu132" / "torch", "torch", "2.14.1+cu132", "cp399-cp399-manylinux_2_28_x86_64")
    _wheel(tmp_path / "cu132" / "torchvision", "torchvision", "0.29.1+cu132", "cp399-cp399-manylinux_2_28_x86_64")
    return tmp_path


def _ask(index: Path | str, tag: str, tmp_path: Path, constraint: str | None = None) -> tuple[int, list[str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    # retries = 0 configured, as a user may have it: the check's own --retries must still win
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_CACHE_DIR="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_RETRIES="0",
               PIP_TIMEOUT="2")
    if constraint:
        (tmp_path / "constraints.txt").write_text(constraint)
        env["PIP_CONSTRAINT"] = str(tmp_path / "constraints.txt")
    base = index if isinstance(index, str) else index.as_uri() + "/"
    argv = check_argv(sys.executable, tag, "2.14.1", "0.29.1", "Linux", base)
    assert "--dry-run" in argv  # never let a broken check install fake wheels into the test venv
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
    return done.returncode, (done.stdout + done.stderr).splitlines()


@pytest.mark.parametrize("tag, state", [("cu126", "served"), ("cu130", "not-served"), ("cu132", "not-served")])
def test_pips_own_answer(index, tmp_path, tag, state):
    code, lines = _ask(index, tag, tmp_path)
    assert answer(code, lines) == state, lines
    if state == "not-served":
        assert f"torch==2.14.1+{tag}" in why(lines)


def test_a_constraint_file_does_not_hide_a_missing_build(index, tmp_path):
    code, lines = _ask(index, "cu130", tmp_path, constraint="torch<=2.14.1\n")
    assert answer(code, lines) == "not-served", lines


def test_an_index_that_cannot_be_reached_is_not_a_missing_build(tmp_path):
    """pip ends with "No matching distribution" here too; its connection warning says the index was never asked
    (a closed local port: refused at once, no network needed)."""
    code, lines = _ask("http://127.0.0.1:9/", "cu130", tmp_path)
    assert code != 0 and any("No matching distribution" in line for line in lines)
    assert answer(code, lines) == "failed", lines
