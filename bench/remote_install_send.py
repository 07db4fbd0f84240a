"""How long ``machine install --no-run`` takes to send this app over ssh (loopback sshd, tests/fixtures/sshd.py):
the tar stream of ``core.remote.install`` — bytes, files and seconds.

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python -m bench.remote_install_send
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from core.remote.install import APP_ROOT, InstallPlan, app_files, install
from core.remote.machines import Machine
from tests.fixtures.sshd import SshServer


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        server = SshServer.start(Path(scratch) / "sshd")
        try:
            key = Path(str(server.host_key) + ".pub").read_text().split()  # accepted as a user would, once
            server.known_hosts.write_text(f"[127.0.0.1]:{server.port} {key[0]} {key[1]}\n")
            machine = Machine("bench", server.alias, str(Path(scratch) / "remote"), str(server.ssh_config))
            files = list(app_files(APP_ROOT))
            size = sum(p.stat().st_size for _, p in files)
            start = time.perf_counter()
            install(InstallPlan(machine, run_installer=False))
            seconds = time.perf_counter() - start
        finally:
            server.stop()
    print(json.dumps({"files": len(files), "bytes": size, "seconds": round(seconds, 2),
                      "MB_per_s": round(size / 1e6 / seconds, 1)}))


if __name__ == "__main__":
    main()
