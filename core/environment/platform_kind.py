"""Is this a container, or WSL? Read from files and the environment, with the standard library only — so the
probe (``gather_system``) and the installer (``installer.detect``, which runs before any dependency is
installed) answer alike. It matters for every driver fix: in a container the driver is the host's, under
WSL2 it is the Windows one (``core.environment.commands.driver_update_command``).
"""

from __future__ import annotations

import os
import platform

#: Mounted into every pod unless automountServiceAccountToken is off (Kubernetes docs, "Accessing the
#: Kubernetes API from a Pod"); KUBERNETES_SERVICE_HOST is set in every container of a pod.
KUBERNETES_SERVICE_ACCOUNT = "/var/run/secrets/kubernetes.io/serviceaccount"


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(65536)
    except OSError:
        return None


def this_machine() -> tuple[str, bool]:
    """(container kind or '', WSL?) of the machine this runs on; ('', False) off Linux."""
    if platform.system() != "Linux":
        return "", False
    files = {p: os.path.exists(p) for p in ("/.dockerenv", "/run/.containerenv", KUBERNETES_SERVICE_ACCOUNT)}
    return (detect_container(files, _read("/proc/1/cgroup"), dict(os.environ)),
            detect_wsl(platform.release(), _read("/proc/version")))


def detect_container(files: dict[str, bool], proc1_cgroup: str | None, env: dict[str, str]) -> str:
    """'docker', 'podman', 'kubernetes', 'lxc' or '' (none found)."""
    if env.get("KUBERNETES_SERVICE_HOST") or files.get(KUBERNETES_SERVICE_ACCOUNT) or (
            proc1_cgroup and "kubepods" in proc1_cgroup):
        return "kubernetes"
    if files.get("/run/.containerenv"):
        return "podman"
    if files.get("/.dockerenv") or (proc1_cgroup and "docker" in proc1_cgroup):
        return "docker"
    if env.get("container") == "lxc" or (proc1_cgroup and "/lxc/" in proc1_cgroup):
        return "lxc"
    return env.get("container", "")


def detect_wsl(release: str, proc_version: str | None) -> bool:
    text = f"{release} {proc_version or ''}".lower()
    return "microsoft" in text or "wsl" in text
