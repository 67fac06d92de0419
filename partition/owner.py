"""Validation of partitioner input and output: part counts and owner arrays.

Every owner array, from a built-in partitioner or a user's function, passes
through :func:`check_owner` before the enactor or :func:`make_partition`
uses it, so that a wrong owner array fails loudly instead of building wrong
sub-graphs.
"""

from __future__ import annotations

import numpy as np


def check_num_parts(num_parts: int) -> int:
    """``num_parts`` as a plain int, after checking it is a positive integer.

    Raises
    ------
    ValueError
        If ``num_parts`` is not an integer (bool included) or is below 1.
    """
    if isinstance(num_parts, bool) or not isinstance(num_parts, (int, np.integer)):
        raise ValueError(f"num_parts={num_parts!r} must be a positive integer")
    if num_parts < 1:
        raise ValueError(f"num_parts={num_parts} must be at least 1")
    return int(num_parts)


def check_owner(owner, graph, num_parts: int, name: str = "partitioner") -> np.ndarray:
    """Check an owner array and return it as a host int32 array.

    Parameters
    ----------
    owner : array-like (NumPy or CuPy)
        One part index per vertex of ``graph``.
    graph : frontier.Graph
        The partitioned graph (only its number of vertices is used).
    num_parts : int
        The number of parts; valid owners are ``0 .. num_parts - 1``.
    name : str
        What produced ``owner``, for error messages.

    Returns
    -------
    numpy.ndarray
        ``owner`` as a host int32 array of length ``graph.num_vertices``.

    Raises
    ------
    ValueError
        If ``owner`` is not one-dimensional of length ``graph.num_vertices``,
        if its dtype is not an integer dtype (bool counts as not integer), or if
        an owner lies outside ``0 .. num_parts - 1``.
    """
    from frontier.device import to_numpy

    num_parts = check_num_parts(num_parts)
    owner = to_numpy(owner)
    n = graph.num_vertices
    if owner.ndim != 1 or len(owner) != n:
        raise ValueError(f"{name} returned an owner array of shape {owner.shape}: expected "
                         f"one owner per vertex, shape ({n},)")
    if owner.dtype.kind not in "iu":
        raise ValueError(f"{name} returned owners of dtype {owner.dtype}: expected an integer "
                         "dtype (part indices)")
    if n:
        bad = np.flatnonzero((owner < 0) | (owner >= num_parts))
        if len(bad):
            vertex = int(bad[0])
            raise ValueError(f"{name} gave vertex {vertex} the owner {int(owner[vertex])}: "
                             f"expected a part index in 0..{num_parts - 1} "
                             f"({len(bad)} vertices are out of range)")
    return owner.astype(np.int32, copy=False)
