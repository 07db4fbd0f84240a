#!/usr/bin/env bash
# System packages the tests need beyond Python's: Debian's openssh-server, whose sshd the remote-machine tests
# (issue 35) start on 127.0.0.1 (tests/fixtures/sshd.py). Installed with apt as root (CI runs as root); elsewhere
# this says why it did nothing, and those tests skip with the same reason.
set -euo pipefail
if [ -x /usr/sbin/sshd ] && command -v ssh >/dev/null && command -v ssh-keygen >/dev/null; then
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "note: openssh-server is not installed and this is not root: the SSH tests will skip (sudo apt-get install openssh-server)." >&2
    exit 0
fi
if ! command -v apt-get >/dev/null; then
    echo "note: openssh-server is not installed and there is no apt-get here: the SSH tests will skip." >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# The package's own service is not wanted (it would listen on every address): the tests start their own sshd on
# loopback. A policy-rc.d that refuses every start keeps the install from starting it, and goes with the install.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy"
    trap 'rm -f "$policy"' EXIT
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends openssh-server openssh-client >/dev/null
