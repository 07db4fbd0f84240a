"""Dataset sync to a machine over SSH (issue 35): the first sync, a sync with nothing changed, one with one label
changed — files and bytes sent and seconds taken. The machine is this one, through a real sshd on 127.0.0.1
(``tests/fixtures/sshd.py``), its workspace another folder; so the figures are this side's hashing and the
tar stream's cost, not a network's.

    python -m bench.remote_sync [--images 768]
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
import time
from pathlib import Path

from core.demo.dataset import DemoSpec, generate_demo_dataset
from core.remote.contact import accept_and_retry, first_contact
from core.remote.machines import Machine
from core.remote.sync import sync_dataset
from tests.fixtures.sshd import SshServer, missing_reason


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--images", type=int, default=768)
    args = parser.parse_args()
    if missing_reason():
        sys.exit(missing_reason())
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        server = SshServer.start(root / "sshd")
        try:
            command = shlex.join(["env", "OMP_NUM_THREADS=1", str(Path(sys.executable).with_name("yolostudio"))])
            machine = Machine("bench", server.alias, str(root / "remote-ws"), str(server.ssh_config), command)
            contact = first_contact(machine)
            assert accept_and_retry(machine, contact, contact.keys[0].fingerprint).ok
            data = generate_demo_dataset(root / "local" / "demo", DemoSpec(n_train=args.images))
            size = sum(p.stat().st_size for p in data.parent.rglob("*") if p.is_file())
            print(f"dataset: {sum(1 for p in data.parent.rglob('*') if p.is_file())} files, {size / 1e6:.1f} MB")
            for label in ("first sync", "nothing changed", "one label changed"):
                if label == "one label changed":
                    changed = next(data.parent.glob("labels/train/*.txt"))
                    changed.write_text(changed.read_text() + "0 0.5 0.5 0.1 0.1\n")
                sent: list[int] = [0]
                start = time.perf_counter()
                plan, account = sync_dataset(machine, data, progress=lambda n, total: sent.__setitem__(0, n))
                took = time.perf_counter() - start
                print(f"{label:<18} {len(account['received']):>5} of {len(plan.local)} files sent, "
                      f"{sent[0] / 1e6:7.2f} MB streamed, {took:5.2f} s")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
