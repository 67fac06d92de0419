"""CUDA kernels for GPU graphs (CuPy) and what they share.

* :file:`traversal.cu`, :file:`scatter.cu`: the fused advance and
  neighbor-reduce kernels and the exact atomic scatters, dispatched by
  :mod:`frontier.operators.fused`;
* :mod:`.compact`: positions of a mask's true entries (or a bitmap's bits);
* :mod:`.changes`: which listed slots differ from a snapshot;
* :mod:`.masked`: a sum over the entries a mask selects;
* :mod:`.segments`: min, max and bitwise reductions of contiguous segments
  (CSR rows), a warp a segment (:mod:`frontier.operators.segments`);
* :mod:`.merge`: offered values combined into owned ones (multi-device);
* :mod:`.edges`, :mod:`.workspace`, :mod:`.module`: what the kernels share
  (:mod:`.module` compiles each instantiation on its first use, and
  :mod:`.first_use` says so once when that keeps a call waiting).

Nothing here imports frontiers or operators, so every layer may use it.
"""
