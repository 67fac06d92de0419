"""Out-of-memory inside a run becomes a DeviceMemoryError that says how much
was asked for and how much was free."""

from __future__ import annotations

import numpy as np
import pytest

import frontier as fr


class Greedy(fr.Primitive):
    """Asks for far more device memory than any GPU has."""

    def setup(self):
        self.hoard = self.xp.empty(1 << 42, dtype=np.uint8)  # 4 TiB

    def initial_frontier(self):
        return fr.Frontier.empty(self.graph.num_vertices, self.graph.device)

    def result(self):
        return fr.Result()


@pytest.mark.gpu
def test_device_out_of_memory_names_request_and_free_memory():
    G = fr.Graph.from_edges([0], [1], device="cuda:0")
    with pytest.raises(fr.DeviceMemoryError) as error:
        fr.enact(Greedy, G)
    message = str(error.value)
    assert "while running Greedy" in message
    assert "needed 4096.00 GiB" in message and "GiB free" in message
    assert "cuda:0" in message
