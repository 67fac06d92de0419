"""Shared fixtures: every device-parametrized test runs on the CPU here and on
``cuda:0`` under ``pytest -m gpu`` on a GPU machine."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=100, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "dev", max_examples=25, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# Many examples, for a long run on request: HYPOTHESIS_PROFILE=nightly.
settings.register_profile(
    "nightly", max_examples=1000, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# For `pytest -m gpu` on the device machine, where each example launches
# kernels and device time is scarce.
settings.register_profile(
    "gpu", max_examples=10, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

DEVICES = ["cpu", pytest.param("cuda:0", marks=pytest.mark.gpu)]

# Every multi-device run in the tests checks each step of a primitive that
# declares changes_only_in_output against its declaration.
os.environ.setdefault("FRONTIER_CHECK_DECLARATIONS", "1")


def pytest_runtest_setup(item):
    """A test marked ``multi_gpu`` fails at once, before any example runs,
    on a machine with fewer than two GPUs: it is not skipped, since a
    skipped test would pass for one that was never run."""
    if item.get_closest_marker("multi_gpu") is not None:
        from frontier.device import gpu_count

        if gpu_count() < 2:
            pytest.fail(f"{item.name} needs two GPUs: run it on a 2-GPU machine, or "
                        "`pytest -m 'gpu and not multi_gpu'` on one GPU")


@pytest.fixture(params=DEVICES)
def device(request):
    """A device name: ``cpu``, and ``cuda:0`` for tests marked ``gpu``."""
    if request.param.startswith("cuda"):
        from frontier.device import gpu_count

        if gpu_count() == 0:
            pytest.fail("tests marked gpu need a CUDA GPU with CuPy; run them on a GPU machine")
    return request.param
