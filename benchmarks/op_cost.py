"""The host cost of small CuPy operations, alone and from two threads at once.

2,000 rounds of a scatter, a gather, an add and a concatenation on 4,096
entries, each thread on a stream of its own; prints microseconds per
operation. A rank of a multi-device run pays about this for each
whole-array operation its boundary makes (issue 27, docs/benchmarks.md).

    python benchmarks/op_cost.py
"""

import threading
import time

import cupy as cp


def work(label: str, rounds: int = 2000) -> None:
    with cp.cuda.Stream(non_blocking=True):
        mask = cp.zeros(4096, dtype=bool)
        idx = cp.arange(0, 4096, 7)
        values = cp.arange(4096)
        for _ in range(50):  # compile and warm up every operation
            mask[idx] = True
            cp.concatenate([values[idx], values[idx] + 1])
        cp.cuda.get_current_stream().synchronize()
        begin = time.perf_counter()
        for _ in range(rounds):
            mask[idx] = True
            gathered = values[idx]
            cp.concatenate([gathered, gathered + 1])
        cp.cuda.get_current_stream().synchronize()
        seconds = (time.perf_counter() - begin) / (4 * rounds)
    print(f"{label}: {seconds * 1e6:.1f} us per operation", flush=True)


def main() -> None:
    work("main thread")
    threads = [threading.Thread(target=work, args=(f"two threads at once, #{i}",))
               for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


if __name__ == "__main__":
    main()
