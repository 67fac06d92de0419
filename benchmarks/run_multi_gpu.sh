#!/usr/bin/env bash
# The multi-GPU batch (a machine with 2 or more GPUs): the GPU tests, the
# multi-device matrix on cuda:0 and cuda:1 included, then a first timing of
# the six primitives on 1 and 2 GPUs.
#     bash benchmarks/run_multi_gpu.sh [SCALE]
# Logs and JSON lines go to $OUT (default: a new temporary directory).
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=".${PYTHONPATH:+:$PYTHONPATH}" NCCL_NVLS_ENABLE=0 HYPOTHESIS_PROFILE=gpu
OUT="${OUT:-$(mktemp -d)}"
SCALE="${1:-20}"
status=0
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
timeout 420 python -m pytest -q -m gpu -p no:cacheprovider tests/test_multi_device.py \
    tests/test_kernels.py tests/test_bfs.py tests/test_dobfs.py tests/test_sssp.py \
    tests/test_cc.py tests/test_bc.py tests/test_pagerank.py tests/test_enactor.py \
    tests/test_memory.py tests/test_partition.py 2>&1 | tee "$OUT/gpu-tests.log" | tail -n 30
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 240 python benchmarks/multi_gpu_timing.py --scale "$SCALE" --gpus 2 \
    --output "$OUT/multi_gpu_timing.jsonl" 2>&1 | tee "$OUT/timing.log" | tail -n 25
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
exit $status
