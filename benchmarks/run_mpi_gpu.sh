#!/usr/bin/env bash
# MPI on two GPUs: `mpirun -n 2` with one GPU per rank (devices="mpi") runs the
# six primitives on a Kronecker graph and must give the single-GPU answers; it
# is timed beside one GPU and the in-process run on cuda:0 and cuda:1.
#     bash benchmarks/run_mpi_gpu.sh [SCALE]     (default 22)
# RANKS=k (default 2) runs k ranks, and the in-process run on cuda:0..cuda:k-1.
# TRANSPORTS (default "nccl staging") are the MPI transports to time, one
# launch each (FRONTIER_MPI_TRANSPORT); SWITCH (default "default") the
# in-process runs' thread switch intervals in seconds ("default": the
# enactor's own; "none": no in-process run). LIMIT (default 150) is each
# run's timeout in seconds.
# Uses the MPI that mpi4py loads: the mpirun beside this Python (the `mpi`
# extra's wheel) if there is one, else the mpirun on PATH (a system MPI).
# JSON lines and the answers go to $OUT (default: a new temporary directory).
set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=".${PYTHONPATH:+:$PYTHONPATH}" NCCL_NVLS_ENABLE=0
unset FRONTIER_DEVICE FRONTIER_MPI_TIMEOUT
OUT="${OUT:-$(mktemp -d)}"
SCALE="${1:-22}"
LINES="$OUT/mpi_gpu_timing.jsonl"
rm -f "$LINES"
PYTHON_BIN="$(python -c 'import sys, os; print(os.path.dirname(sys.executable))')"
MPIRUN="$PYTHON_BIN/mpirun"
[ -x "$MPIRUN" ] || MPIRUN="$(command -v mpirun)"
RANKS="${RANKS:-2}"
LAUNCH=("$MPIRUN" -n "$RANKS")
if "$MPIRUN" --version 2>&1 | grep -q -e "Open MPI" -e "OpenRTE"; then
    # Root on the device machine; pass the environment to both ranks.
    LAUNCH+=(--allow-run-as-root --bind-to none -x PYTHONPATH -x NCCL_NVLS_ENABLE -x PATH
             -x FRONTIER_MPI_TRANSPORT)
fi
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader
echo "mpirun: $MPIRUN ($("$MPIRUN" --version 2>&1 | head -n 1))"
python -c 'from mpi4py import MPI; print("mpi4py loads:", MPI.Get_library_version().splitlines()[0])'
# The interpreter by its path: mpirun does not pass PATH on to the ranks.
PYTHON="$(python -c 'import sys; print(sys.executable)')"
TIME=("$PYTHON" benchmarks/mpi_timing.py --scale "$SCALE" --warmup 1 --repeat 2 --output "$LINES")
status=0
LIMIT="${LIMIT:-150}"
timeout "$LIMIT" "${TIME[@]}" --devices cuda:0 --save "$OUT/answers.npz" || status=1
for transport in ${TRANSPORTS:-nccl staging}; do
    FRONTIER_MPI_TRANSPORT="$transport" timeout "$LIMIT" "${LAUNCH[@]}" "${TIME[@]}" \
        --devices mpi --check "$OUT/answers.npz" || status=1
done
GPUS="$(seq -s, -f 'cuda:%g' 0 $((RANKS - 1)))"
for switch in ${SWITCH:-default}; do
    [ "$switch" = none ] && continue
    option=()
    [ "$switch" = default ] || option=(--switch-interval "$switch")
    timeout "$LIMIT" "${TIME[@]}" --devices "$GPUS" "${option[@]}" \
        --check "$OUT/answers.npz" || status=1
done
echo
echo "Kronecker scale $SCALE, median ms (answers checked against cuda:0):"
python benchmarks/mpi_timing.py --table "$LINES"
exit $status
