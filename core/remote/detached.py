"""``python -m core.remote.detached FOLDER -- COMMAND …``: run COMMAND with its output in FOLDER/output.log and
write its exit code to FOLDER/exit.json when it ends (``core.remote.jobs``: a job started over ssh whose ending is
read after the link that started it is gone). No shell: COMMAND is an argv list."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from core.atomic import atomic_write_text


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print("usage: python -m core.remote.detached FOLDER -- COMMAND ...", file=sys.stderr)
        return 2
    folder, command = Path(argv[0]), argv[2:]
    with open(folder / "output.log", "ab") as sink:
        try:
            code = subprocess.call(command, stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT)
        except OSError as exc:
            sink.write(f"{exc}\n".encode())
            code = 127
    atomic_write_text(folder / "exit.json", json.dumps({"exit": code}), backup=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
