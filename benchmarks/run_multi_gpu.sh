#!/usr/bin/env bash
# The multi-GPU batch (a machine with 2 or more GPUs), in one call:
#   1. every GPU test (`pytest -m gpu`), the multi-device matrix on cuda:0 and
#      cuda:1 and the 2-GPU memory-cap test included;
#   2. MPI: `mpirun -n 2`, one GPU per rank, against one GPU and the
#      in-process 2-GPU run (benchmarks/run_mpi_gpu.sh);
#   3. `frontier bench --devices 1,2` at Kronecker SCALE (records in $OUT/results).
#     bash benchmarks/run_multi_gpu.sh [SCALE]      (default 22)
# Logs go to $OUT (default: a new temporary directory). Exit 1 if a step failed.
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=".${PYTHONPATH:+:$PYTHONPATH}" NCCL_NVLS_ENABLE=0 HYPOTHESIS_PROFILE=gpu
OUT="${OUT:-$(mktemp -d)}"
SCALE="${1:-22}"
status=0
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
timeout 300 python -m pytest -q -m gpu -p no:cacheprovider 2>&1 \
    | grep -v PerformanceWarning | tee "$OUT/gpu-tests.log" | tail -n 12
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
OUT="$OUT" timeout 330 bash benchmarks/run_mpi_gpu.sh "$SCALE" 2>&1 | tee "$OUT/mpi.log" | tail -n 14
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
mkdir -p "$OUT/results"
timeout 150 python -m frontier.cli bench --kronecker "$SCALE" --devices 1,2 --peers none \
    --primitives bfs,pagerank,cc --roots 4 --repeat 2 --results "$OUT/results" --quiet 2>&1 \
    | tail -n 8
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
exit $status
