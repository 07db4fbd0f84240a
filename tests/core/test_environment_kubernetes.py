"""A Kubernetes pod is limited by its pod spec (``resources.limits``, emptyDir volumes), not by ``docker run``
flags: each fix names what the facts' container kind really takes (Kubernetes docs, "Resource Management
for Pods and Containers"; the serviceaccount mount and KUBERNETES_SERVICE_HOST identify a pod)."""

from __future__ import annotations

import pytest

from core.environment.gather_system import KUBERNETES_SERVICE_ACCOUNT, detect_container
from core.environment.rules import RuleContext, evaluate, shm_needed_gb
from tests.core.environment_builders import healthy_gpu_machine


def _limited(container: str):
    f = healthy_gpu_machine()
    f.system.logical_cores, f.system.usable_cores, f.system.cgroup_cpu_quota = 64, 4, 4.0
    f.system.container = container
    f.system.shm_total_gb = shm_needed_gb(RuleContext(workers=2)) + 0.001
    return f


# (container kind, finding, text the fix must contain, text it must not)
CASES = [
    ("kubernetes", "cpu-limited", 'resources: limits: cpu: "', "docker run"),
    ("docker", "cpu-limited", "docker run --cpus", "resources:"),
    ("", "cpu-limited", "--workers 3", "docker run"),
    ("kubernetes", "shm-too-small", "emptyDir with medium: Memory", "docker run"),
    ("docker", "shm-too-small", "--shm-size", "emptyDir"),
]


@pytest.mark.parametrize("container, finding_id, wanted, unwanted", CASES)
def test_fix_matches_the_container_kind(container, finding_id, wanted, unwanted):
    finding = next(f for f in evaluate(_limited(container), RuleContext(workers=8)).findings if f.code == finding_id)
    assert wanted in finding.fix and unwanted not in finding.fix, finding.fix


def test_the_pods_limit_names_the_cpus_yolov5_would_use():
    finding = next(f for f in evaluate(_limited("kubernetes"), RuleContext(workers=8, batch=16)).findings
                   if f.code == "cpu-limited")
    assert 'cpu: "9"' in finding.fix  # 8 workers + the training process


def test_a_pod_is_recognised_by_its_service_account_mount():
    assert detect_container({KUBERNETES_SERVICE_ACCOUNT: True}, "0::/", {}) == "kubernetes"
