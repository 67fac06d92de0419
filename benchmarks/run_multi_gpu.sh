#!/usr/bin/env bash
# The multi-GPU batch (a machine with 2 or more GPUs), one step per call:
#     bash benchmarks/run_multi_gpu.sh tests          every GPU test (`pytest -m gpu`),
#         the multi-device matrix on cuda:0 and cuda:1 and the 2-GPU memory-cap test included
#     bash benchmarks/run_multi_gpu.sh mpi [SCALE]    `mpirun -n RANKS` (default 2), one GPU per rank, against
#         one GPU and the in-process 2-GPU run (benchmarks/run_mpi_gpu.sh; default scale 22)
#     bash benchmarks/run_multi_gpu.sh bench [SCALE] [COUNTS]   `frontier bench --devices COUNTS`
#         (default 1,2) at Kronecker SCALE (default 22), ROOTS roots (default 4), PRIMITIVES
#         (default all six), each multi-GPU run as threads and as processes (WORKERS),
#         DUPLICATION all (default) or one_hop
#     bash benchmarks/run_multi_gpu.sh weak [SCALE]   weak scaling: Kronecker SCALE (default 26)
#         on 1 GPU, SCALE+1 on 2, SCALE+2 on 4, SCALE+3 on 8 (as many as the machine has), each
#         built part by part on the GPUs (distributed_largest.py: BFS and PageRank)
#     bash benchmarks/run_multi_gpu.sh largest SCALE  the same on every GPU of the machine at SCALE
#     bash benchmarks/run_multi_gpu.sh joint [SCALES]   joint levels between GPUs: their GPU tests
#         (the 2-GPU cells included), then benchmarks/shared_parts.py with each part on a GPU of
#         its own (--spread) and with the parts sharing cuda:0, BFS at SCALES (default 24,26),
#         PARTS (default 2) parts, joint levels against the output boundary and one GPU
# Output goes to $OUT (default: a new temporary directory), packed into
# $OUT/run_multi_gpu.tar.gz (the device tool returns at most 8 files).
# Exit 1 if the step failed.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=".${PYTHONPATH:+:$PYTHONPATH}" NCCL_NVLS_ENABLE=0 HYPOTHESIS_PROFILE=gpu
OUT="${OUT:-$(mktemp -d)}"
WORK="$OUT/multi"
mkdir -p "$WORK/results"
what=${1:-tests}
SCALE="${2:-22}"
status=0
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
case "$what" in
tests)
    timeout 560 python -m pytest -q -m gpu -p no:cacheprovider 2>&1 \
        | grep -v PerformanceWarning | tee "$WORK/gpu-tests.log" | tail -n 12
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
mpi)
    OUT="$WORK" timeout 580 bash benchmarks/run_mpi_gpu.sh "$SCALE" 2>&1 \
        | tee "$WORK/mpi.log" | tail -n 14
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
bench)
    timeout 560 python -m frontier.cli bench --kronecker "$SCALE" --devices "${3:-1,2}" \
        --workers "${WORKERS:-threads,processes}" --duplication "${DUPLICATION:-all}" --primitives "${PRIMITIVES:-bfs,dobfs,sssp,cc,bc,pagerank}" \
        --peers none --roots "${ROOTS:-4}" --repeat 2 --results "$WORK/results" \
        --markdown "$WORK/benchmarks.md" --quiet 2>&1 | tee "$WORK/bench.log" | tail -n 20
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
weak)
    gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
    count=1 scale="${2:-26}"
    while [ "$count" -le "$gpus" ]; do
        timeout 240 python benchmarks/distributed_largest.py "$scale" --devices "$count" \
            --output "$WORK/results/kronecker-$scale-on-$count.json" 2>&1 \
            | tee "$WORK/weak-$count.log" | tail -n 1 | cut -c1-600
        [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
        count=$((count * 2)) scale=$((scale + 1))
    done ;;
joint)
    timeout 300 python -m pytest -q -m gpu -p no:cacheprovider tests/test_joint_levels.py \
        tests/test_multi_device.py 2>&1 | grep -v PerformanceWarning \
        | tee "$WORK/joint-tests.log" | tail -n 6
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    for placement in --spread ""; do
        timeout 250 python benchmarks/shared_parts.py --device cuda:0 $placement \
            --kronecker "${2:-24,26}" --parts "${PARTS:-2}" --primitives bfs --duplication all \
            --boundaries joint,output --roots 2 --repeat 3 --results "$WORK/results" 2>&1 \
            | tee -a "$WORK/joint.log" | grep -v "^|---"
        [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    done ;;
largest)
    gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
    timeout 560 python benchmarks/distributed_largest.py "$SCALE" --devices "$gpus" \
        --output "$WORK/results/kronecker-$SCALE-on-$gpus.json" 2>&1 \
        | tee "$WORK/largest.log" | tail -n 3 | cut -c1-1200
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
*)
    echo "run_multi_gpu.sh: expected tests, mpi, bench, weak, joint or largest, got $what" >&2
    exit 2 ;;
esac
tar -czf "$OUT/run_multi_gpu.tar.gz" -C "$WORK" . && rm -rf "$WORK"
exit $status
