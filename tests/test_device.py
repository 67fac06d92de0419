"""Device names, the default device and the ``devices=`` argument."""

from __future__ import annotations

import numpy as np
import pytest

import frontier as fr
from frontier import device as device_module
from frontier.device import Device, get_device, resolve_devices, shares_a_device


@pytest.fixture
def two_gpus(monkeypatch):
    """Pretend CuPy sees two GPUs (only names are resolved, nothing is allocated)."""
    monkeypatch.setattr(device_module, "gpu_count", lambda: 2)
    monkeypatch.delenv("FRONTIER_DEVICE", raising=False)


@pytest.fixture
def no_gpu(monkeypatch):
    monkeypatch.setattr(device_module, "gpu_count", lambda: 0)
    monkeypatch.delenv("FRONTIER_DEVICE", raising=False)


@pytest.mark.parametrize("name, kind, index, canonical", [
    ("cpu", "cpu", 0, "cpu"),
    ("cpu:0", "cpu", 0, "cpu"),
    ("cpu:3", "cpu", 3, "cpu:3"),
    (" CPU:12 ", "cpu", 12, "cpu:12"),
])
def test_cpu_names(name, kind, index, canonical):
    dev = get_device(name)
    assert (dev.kind, dev.index, dev.name, str(dev)) == (kind, index, canonical, canonical)
    assert dev.xp is np
    assert not dev.is_gpu


@pytest.mark.parametrize("name, index", [("cuda:0", 0), ("cuda:1", 1), ("cuda", 0)])
def test_cuda_names(two_gpus, name, index):
    dev = get_device(name)
    assert dev == Device("cuda", index)
    assert dev.is_gpu
    assert dev.name == f"cuda:{index}"


def test_cuda_index_beyond_visible_gpus(two_gpus):
    with pytest.raises(ValueError, match="'cuda:2'"):
        get_device("cuda:2")


def test_cuda_without_gpu(no_gpu):
    with pytest.raises(ValueError, match="'cuda:0'.*0 GPU"):
        get_device("cuda:0")


@pytest.mark.parametrize("name", ["gpu", "cpu:", "cpu:-1", "cuda:x", "tpu:0", "", "cpu:0:1", "3"])
def test_unknown_names(name):
    with pytest.raises(ValueError, match=f"unknown device name {name!r}"):
        get_device(name)


def test_device_passes_through():
    dev = Device("cpu", 2)
    assert get_device(dev) is dev


def test_default_device_without_gpu(no_gpu):
    assert fr.default_device() == Device("cpu", 0)
    assert get_device(None) == Device("cpu", 0)


def test_default_device_with_gpu(two_gpus):
    assert fr.default_device() == Device("cuda", 0)


def test_frontier_device_overrides_default(two_gpus, monkeypatch):
    monkeypatch.setenv("FRONTIER_DEVICE", "cpu:2")
    assert fr.default_device() == Device("cpu", 2)
    assert resolve_devices(None) == [Device("cpu", 2)]
    monkeypatch.setenv("FRONTIER_DEVICE", "cuda:1")
    assert fr.default_device() == Device("cuda", 1)


def test_frontier_device_bad_value(monkeypatch):
    monkeypatch.setenv("FRONTIER_DEVICE", "abacus")
    with pytest.raises(ValueError, match="'abacus'"):
        fr.default_device()


def test_resolve_none(no_gpu):
    assert resolve_devices(None) == [Device("cpu", 0)]


def test_resolve_count_without_gpu(no_gpu):
    assert resolve_devices(3) == [Device("cpu", i) for i in range(3)]
    assert resolve_devices(np.int64(2)) == [Device("cpu", 0), Device("cpu", 1)]


def test_resolve_count_with_gpus(two_gpus, monkeypatch):
    assert resolve_devices(2) == [Device("cuda", 0), Device("cuda", 1)]
    # More than are present: virtual CPU devices instead.
    assert resolve_devices(3) == [Device("cpu", i) for i in range(3)]
    # FRONTIER_DEVICE=cpu keeps multi-device runs on the CPU too.
    monkeypatch.setenv("FRONTIER_DEVICE", "cpu")
    assert resolve_devices(2) == [Device("cpu", 0), Device("cpu", 1)]


@pytest.mark.parametrize("count", [0, -2])
def test_resolve_count_below_one(count):
    with pytest.raises(ValueError, match=f"devices={count}"):
        resolve_devices(count)


def test_resolve_names(two_gpus):
    assert resolve_devices("cpu:1") == [Device("cpu", 1)]
    assert resolve_devices(["cpu:0", "cpu:1"]) == [Device("cpu", 0), Device("cpu", 1)]
    assert resolve_devices(("cuda:1", Device("cuda", 0))) == [Device("cuda", 1), Device("cuda", 0)]
    with pytest.raises(ValueError, match="mixes CPU and GPU devices.*2 GPU"):
        resolve_devices(("cuda:1", Device("cpu", 0)))


@pytest.mark.parametrize("names", [["cpu", "cpu:0"], ["cpu:1", "cpu:2", "CPU:1"]])
def test_resolve_duplicates(names):
    """A device named twice holds two parts: it is kept, in order."""
    resolved = resolve_devices(names)
    assert [device.name for device in resolved] == [name.lower().replace("cpu:0", "cpu")
                                                    for name in names]
    assert shares_a_device(resolved)
    assert not shares_a_device(resolve_devices(["cpu:0", "cpu:1"]))


def test_resolve_empty_list():
    with pytest.raises(ValueError, match=r"devices=\[\]"):
        resolve_devices([])


def test_resolve_bad_name_in_list():
    with pytest.raises(ValueError, match="'cpu:one'"):
        resolve_devices(["cpu", "cpu:one"])


def test_cpu_asarray_and_to_numpy():
    dev = get_device("cpu")
    values = dev.asarray([1, 2, 3], dtype=np.int32)
    assert isinstance(values, np.ndarray) and values.dtype == np.int32
    assert fr.to_numpy(values) is values
    assert device_module.array_namespace(values) is np
    assert device_module.device_of(values) == Device("cpu", 0)
    dev.synchronize()
    assert dev.describe() == "cpu"


def test_cupy_arrays_come_home(device):
    dev = get_device(device)
    values = dev.asarray(np.arange(5))
    assert device_module.array_namespace(values) is dev.xp
    host = fr.to_numpy(values)
    assert isinstance(host, np.ndarray)
    np.testing.assert_array_equal(host, np.arange(5))
