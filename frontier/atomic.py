"""Write files atomically: all of the new content, or the old file untouched.

Every file Frontier writes (``write_graph``, ``frontier convert``,
``frontier run --output``, ``frontier info --plot``) goes through
:func:`atomic_write`: the content goes to a temporary file in the target's
directory, is flushed to disk, and only then renamed over the target with
``os.replace``, which is atomic on POSIX and Windows when both names are on
one file system. A run that fails or is killed part-way leaves the previous
file (if any) as it was and removes its temporary file; a hard kill can leave
a hidden ``.NAME.*.tmp`` behind, never a half-written ``NAME``.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import numpy as np


def _new_file_mode(path: Path) -> int:
    """The permissions the target would get from ``open(path, "w")``: the
    existing file's, else 0o666 less the umask (a temporary file is 0o600)."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextlib.contextmanager
def atomic_write(path, mode: str = "wb") -> Iterator[IO]:
    """Open a temporary file that replaces ``path`` when the block succeeds.

    Parameters
    ----------
    path : str or os.PathLike
        The file to create or replace. Its directory must exist.
    mode : ``"wb"`` or ``"w"``
        Binary or text (UTF-8) file object.

    Yields
    ------
    file object
        Write the new content to it; do not close it.

    Raises
    ------
    FileNotFoundError
        If the directory of ``path`` does not exist.
    IsADirectoryError
        If ``path`` is a directory.

    Any exception raised inside the block propagates after the temporary file
    is removed; ``path`` is then exactly as it was before.

    Examples
    --------
    >>> from frontier.atomic import atomic_write
    >>> with atomic_write("numbers.txt", "w") as file:   # doctest: +SKIP
    ...     file.write("1 2 3\\n")
    """
    if mode not in ("wb", "w"):
        raise ValueError(f"mode={mode!r}: expected 'wb' or 'w'")
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a directory, not a file to write")
    directory = path.parent
    if not directory.is_dir():
        raise FileNotFoundError(f"cannot write {path}: directory {directory} does not exist")
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                             dir=directory)
    try:
        with os.fdopen(descriptor, mode, **({} if mode == "wb" else {"encoding": "utf-8"})) \
                as file:
            yield file
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, _new_file_mode(path))
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def write_npz(path, arrays: dict) -> Path:
    """``numpy.savez(path, **arrays)``, atomically (see :func:`atomic_write`).

    As with NumPy, ``.npz`` is appended to a name that does not end in it;
    the path written is returned.
    """
    path = Path(path)
    if not path.name.endswith(".npz"):
        path = path.with_name(path.name + ".npz")
    with atomic_write(path) as file:
        np.savez(file, **arrays)
    return path
