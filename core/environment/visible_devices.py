"""Which GPUs the environment lets CUDA see: ``CUDA_VISIBLE_DEVICES`` and a container's visible devices.

NVML lists every GPU of the machine (or of the container) whatever ``CUDA_VISIBLE_DEVICES`` says; CUDA, and so
torch and yolov5, sees only what that variable lets through. These readings follow the upstream definitions
(cited per table below) so a rule can say *which* entry hides a GPU and what to set instead — never a reboot
or a reinstall, which cannot change an environment variable. Pure functions of the variable and the GPUs'
identities, so a saved facts file is judged as the machine it came from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: CUDA C++ Programming Guide, "CUDA Environment Variables" (CUDA_VISIBLE_DEVICES): "A comma-separated
#: sequence of GPU identifiers … given as integer indices or as UUID strings" (``GPU-<uuid>``, "abbreviated
#: forms are allowed; simply specify enough digits from the beginning of the GPU UUID to uniquely identify
#: that GPU"), or MIG instances (``MIG-<uuid>`` / ``MIG-GPU-<uuid>/<gi>/<ci>``). "If one of the indices is
#: invalid, only the devices whose index precedes the invalid index are visible": ``0,2,-1,1`` shows 0 and 2.
#: Set but empty: no device is visible. Unset: every device.
CUDA_VISIBLE = "CUDA_VISIBLE_DEVICES"
#: CUDA_DEVICE_ORDER: ``FASTEST_FIRST`` (the default: "the fastest device first, the rest unspecified") or
#: ``PCI_BUS_ID`` ("in ascending PCI bus ID order", NVML's and nvidia-smi's order). Indices in
#: CUDA_VISIBLE_DEVICES and in ``--device`` count in this order.
CUDA_ORDER = "CUDA_DEVICE_ORDER"
#: NVIDIA Container Toolkit, "Specialized configurations: GPU enumeration" (NVIDIA_VISIBLE_DEVICES): a list of
#: indices or UUIDs, ``all``; ``none`` ("no GPU will be accessible, but driver capabilities will be enabled");
#: ``void`` or empty or unset ("nvidia-container-runtime will have the same behavior as runc": no GPU, no
#: driver). The runtime reads it when the container starts: inside, NVML lists only the GPUs it mounted.
CONTAINER_VISIBLE = "NVIDIA_VISIBLE_DEVICES"
CONTAINER_NO_GPU = ("none", "void", "")

_UUID = re.compile(r"^GPU-[0-9a-f]{1,8}(-[0-9a-f]{0,12})*$", re.I)


@dataclass
class Visibility:
    """What CUDA_VISIBLE_DEVICES leaves visible: the entries that name a GPU (in CUDA's order) and the first
    entry that names none (everything after it is hidden too), with why."""

    value: str
    visible: list[str] = field(default_factory=list)
    invalid: str | None = None
    reason: str = ""  # "empty", "index" (no such index), "uuid" (names no GPU), "negative", "syntax"
    after: list[str] = field(default_factory=list)  # valid-looking entries hidden by the invalid one


def _uuid_key(text: str) -> str:
    text = text.strip().lower()
    return text[4:] if text.startswith("gpu-") else text


def parse_cuda_visible(value: str, gpu_count: int, uuids: list[str | None], mig_uuids: list[str] | None = None
                       ) -> Visibility:
    """The GPUs ``CUDA_VISIBLE_DEVICES=value`` lets CUDA see on a machine with ``gpu_count`` GPUs of these
    UUIDs (NVML's ``nvmlDeviceGetUUID``: ``GPU-…``), per the CUDA Programming Guide (see ``CUDA_VISIBLE``)."""
    out = Visibility(value=value)
    entries = [e.strip() for e in value.split(",")]
    if value.strip() == "":
        out.reason = "empty"
        return out
    known = [_uuid_key(u) for u in uuids if u]
    migs = [m.strip().lower() for m in (mig_uuids or [])]
    for position, entry in enumerate(entries):
        reason = ""
        if re.fullmatch(r"-?\d+", entry):
            index = int(entry)
            reason = "negative" if index < 0 else "index" if index >= gpu_count else ""
        elif entry.lower().startswith("mig-"):  # judged only when the MIG devices were read
            reason = "" if mig_uuids is None or any(m.startswith(entry.lower()) or entry.lower().startswith(m)
                                                    for m in migs) else "uuid"
        elif _UUID.match(entry):
            matches = [u for u in known if u.startswith(_uuid_key(entry))]
            reason = "" if len(matches) == 1 else "uuid"
        else:
            reason = "syntax"
        if reason:
            out.invalid, out.reason = entry, reason
            out.after = [e for e in entries[position + 1:] if e]
            return out
        out.visible.append(entry)
    return out


def container_hides_gpus(env: dict[str, str], container: str | None) -> str | None:
    """The container's NVIDIA_VISIBLE_DEVICES value when it was started without GPUs, else None."""
    if not container or CONTAINER_VISIBLE not in env:
        return None
    value = env[CONTAINER_VISIBLE]
    return value if value.strip().lower() in CONTAINER_NO_GPU else None
