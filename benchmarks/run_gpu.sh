#!/usr/bin/env bash
# The GPU batch: GPU tests, then `frontier bench` on Kronecker scale 22 and 24,
# a small Kronecker graph with every CPU peer, and a 4096x4096 grid (BFS).
#
# Run from anywhere on the GPU machine (it works from the repository root):
#     bash benchmarks/run_gpu.sh [tests|bench|all|small|kernels|shared|prims]
#     bash benchmarks/run_gpu.sh largest SCALE
# `largest` is the one-GPU memory batch instead: the generator's GPU tests,
# all six primitives at Kronecker scale 24, then BFS, DOBFS and PageRank at
# SCALE (28 fits an 80 GB H100, 29 a 141 GB H200), records with peak_bytes,
# graph_bytes, graph_build_s and host_peak_bytes. `small` is the small-graph
# batch: kernel tests, benchmarks/ab.py and a per-call profile at Kronecker
# 14, then Kronecker 14 with peers and the path. `kernels` takes a level's host
# cost apart (benchmarks/level_floor.py) and times every kernel of one call
# with Nsight Compute (benchmarks/kernel_times.py; KERNELS="24:dobfs grid:bfs").
# Every step has its own time limit; `all` took under 4 minutes on an H200
# (2026-11-22), well inside those limits.
# Outputs under $OUT (the GPU machine sets it; default: a new temporary directory):
#     results/*.json   the records, one file per bench run (copy them to benchmarks/results/)
#     benchmarks.md    a Markdown table per bench run
#     logs/*.log       each step's full output (progress lines, tracebacks)
# results/ and logs/ are packed into $OUT/run_gpu-WHAT-TIME.tar.gz at the end
# (one archive per run: two runs in one device call keep both).
# The last thing printed is a table of every `frontier bench` record. Exit status 1 if a step failed.

set -u
cd "$(dirname "$0")/.."
export PYTHONPATH=".${PYTHONPATH:+:$PYTHONPATH}"
OUT="${OUT:-$(mktemp -d)}"
RESULTS="$OUT/results"
LOGS="$OUT/logs"
mkdir -p "$RESULTS" "$LOGS"
status=0
echo "run_gpu.sh: writing to $OUT"

# step NAME SECONDS COMMAND...: run COMMAND under a time limit, output to $LOGS/NAME.log
step() {
    local name=$1 limit=$2 start=$SECONDS rc
    shift 2
    # unbuffered: a step stopped at its limit still leaves what it printed
    PYTHONUNBUFFERED=1 timeout --kill-after=10 "$limit" "$@" >"$LOGS/$name.log" 2>&1
    rc=$?
    echo "== $name: exit $rc after $((SECONDS - start)) s (limit $limit s)"
    if [ "$rc" -ne 0 ]; then
        status=1
        tail -n 20 "$LOGS/$name.log"
    fi
}

bench() {
    local name=$1 limit=$2
    shift 2
    step "$name" "$limit" python -m frontier.cli bench --device cuda:0 \
        --results "$RESULTS" --markdown "$OUT/benchmarks.md" "$@"
}

PRIMS_DEVICE=${PRIMS_DEVICE:-cuda:0}   # prims only: cpu runs it without a GPU (a smoke test)
if [ "${1:-all} $PRIMS_DEVICE" = "prims cpu" ]; then
    echo "run_gpu.sh: prims on the CPU"
elif ! python -c "import cupy; cupy.cuda.runtime.getDeviceCount()" >/dev/null 2>&1; then
    echo "run_gpu.sh: CuPy cannot see a GPU here; nothing to do" >&2
    exit 1
else
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
    python -c "import sys, numpy, cupy; print('python', sys.version.split()[0], \
'numpy', numpy.__version__, 'cupy', cupy.__version__)"
fi

what=${1:-all}   # tests | bench | all | largest | small | kernels | shared | deep | prims
if [ "$what" = kernels ]; then
    # Per-level host cost taken apart, then every kernel of one call timed by
    # Nsight Compute (benchmarks/kernel_times.py) for each WORKLOAD:PRIMITIVE.
    step level-floor 120 python benchmarks/level_floor.py
    cat "$LOGS/level-floor.log"
    ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
    for item in ${KERNELS:-24:dobfs 24:bfs 26:dobfs}; do
        scale=${item%%:*} name=${item##*:}
        step "ncu-$scale-$name" 240 "$ncu" --profile-from-start off --clock-control none \
            --metrics gpu__time_duration.sum --csv --log-file "$LOGS/ncu-$scale-$name.csv" \
            python benchmarks/kernel_times.py run "$scale" "$name"
        grep -m 1 iterations "$LOGS/ncu-$scale-$name.log"
        python benchmarks/kernel_times.py table "$LOGS/ncu-$scale-$name.csv" | head -n 25
    done
elif [ "$what" = small ]; then
    # Small graphs, where a call is host work: the fused kernels' tests, an
    # A/B of the constants that choose the small-graph paths, a per-call
    # profile, then Kronecker 14 with its peers and the path.
    HYPOTHESIS_PROFILE=gpu step kernel-tests 200 python -m pytest -m gpu -q -p no:cacheprovider \
        tests/test_kernels.py tests/test_frontier.py tests/test_small_graphs.py tests/test_operators.py \
        tests/test_fast_paths_round2.py tests/test_compact.py tests/test_bfs.py tests/test_dobfs.py \
        tests/test_sssp.py tests/test_bc.py tests/test_cc.py tests/test_pagerank.py \
        tests/test_compact.py tests/test_messages.py
    tail -n 3 "$LOGS/kernel-tests.log"
    step ab-14 200 python benchmarks/ab.py --kronecker 14 --rounds 20 \
        --primitives bfs,dobfs,sssp,cc,pagerank \
        --set frontier.operators.fused.DENSE_MIN_VERTICES=0 \
        --set frontier.kernels.edges.BLOCK_SCAN_MAX=0 \
        --set frontier.kernels.workspace.PINNED_READS=False
    cat "$LOGS/ab-14.log"
    step ab-grid 200 python benchmarks/ab.py --grid 256 --rounds 10 --primitives bfs,sssp \
        --set frontier.kernels.workspace.PINNED_READS=False
    cat "$LOGS/ab-grid.log"
    # Where the dense claim output starts to pay: always against never.
    for scale in 16 18 20; do
        step "ab-$scale" 120 python benchmarks/ab.py --kronecker "$scale" --rounds 10 \
            --primitives bfs,dobfs --set frontier.operators.fused.DENSE_MIN_VERTICES=0 \
            --set frontier.operators.fused.DENSE_MIN_VERTICES=1073741824
        tail -n 6 "$LOGS/ab-$scale.log"
    done
    step profile-14 120 python benchmarks/profile_gpu.py 14 bfs,sssp calls
    head -n 24 "$LOGS/profile-14.log"
    step profile-path 120 python benchmarks/profile_gpu.py path bfs
    head -n 24 "$LOGS/profile-path.log"
    bench kronecker-14 60 --kronecker 14
    bench path-20000 60 --grid 1x20000 --primitives bfs --roots 2 --repeat 1 --peers none
    bench grid-4096 100 --grid 4096x4096 --primitives bfs --roots 2 --repeat 1 --peers none
elif [ "$what" = deep ]; then
    # Deep graphs (issue 28): the replayed-level tests, the path and the grid
    # (time a level), the road graphs of DATASETS (default ../shared/datasets)
    # against SciPy, then old code against new (benchmarks/ab_code.sh, old
    # tree in .ab/old) on the path, the grid and Kronecker 22-26.
    HYPOTHESIS_PROFILE=gpu step deep-tests 300 python -m pytest -m gpu -q -p no:cacheprovider \
        tests/test_replay.py tests/test_bfs.py tests/test_user_primitives.py ${TESTS:-}
    tail -n 25 "$LOGS/deep-tests.log"
    bench path-20000 60 --grid 1x20000 --primitives bfs --roots 2 --peers scipy-csgraph
    bench grid-4096 120 --grid 4096x4096 --primitives bfs --roots 2 --peers scipy-csgraph
    for file in DE.gr VT.gr luxembourg_osm.mtx; do
        bench "road-$file" 120 --graph "${DATASETS:-../shared/datasets}/$file" \
            --primitives bfs,sssp,cc --roots 4 --peers scipy-csgraph
        bench "road-cpu-$file" 120 --graph "${DATASETS:-../shared/datasets}/$file" \
            --primitives bfs,sssp --roots 4 --peers scipy-csgraph --device cpu
    done
    if [ -d .ab/old ]; then
        ITEMS=${ITEMS:-"path:bfs grid:bfs 22:bfs 24:bfs 26:bfs 24:sssp"} \
            step ab-code 480 bash benchmarks/ab_code.sh
        cat "$LOGS/ab-code.log"
    fi
elif [ "$what" = shared ]; then
    # Several parts on one GPU (issue 27): the multi-device GPU tests as parts
    # sharing cuda:0, then benchmarks/shared_parts.py at SCALES (default 24)
    # with PARTS parts (default 2,4), every boundary (BOUNDARIES, default
    # output,refresh,snapshot) and both duplications, PRIMITIVES (default all six).
    HYPOTHESIS_PROFILE=gpu step shared-tests 300 python -m pytest -m "gpu and not multi_gpu" -q \
        -p no:cacheprovider tests/test_multi_device.py tests/test_output_exchange.py \
        tests/test_lagging_copies.py tests/test_first_boundary.py \
        tests/test_processes.py tests/test_user_primitives.py tests/test_device.py \
        tests/test_dense_steps.py
    tail -n 25 "$LOGS/shared-tests.log"
    for scale in ${SCALES:-24}; do
        step "shared-parts-$scale" 420 python benchmarks/shared_parts.py --kronecker "$scale" \
            --parts "${PARTS:-2,4}" --duplication "${DUPLICATION:-all,one_hop}" \
            --primitives "${PRIMITIVES:-bfs,dobfs,sssp,cc,bc,pagerank}" \
            --boundaries "${BOUNDARIES:-output,refresh,snapshot}" \
            --device cuda:0 --results "$RESULTS"
        cat "$LOGS/shared-parts-$scale.log"
    done
elif [ "$what" = prims ]; then
    # The primitives of issue 32 on one GPU (issue 32's figures): Kronecker
    # SCALES (default "22 24"), one bench per group so that a slow one
    # cannot hold up the rest, each under LIMIT seconds (default 33 at scale
    # 22 and below, 45 above: 12 steps, under 8 minutes in all, graph
    # builds included). A run is WARMUP warm-ups (default 1; 0 for a slow
    # primitive at scale 24 once a smaller scale of it has compiled its
    # kernels in the same device call), REPEAT timed runs (default 1)
    # and the peak-memory run (PRIM_GROUPS: the groups to run, space-separated,
    # default all six); paths and dijkstra (a Python list per
    # reached vertex, some 10 million at scale 24) from ROOTS roots (default
    # 2 at scale 22 and below, 1 above). Smoke test without a GPU:
    #     PRIMS_DEVICE=cpu SCALES=10 bash benchmarks/run_gpu.sh prims
    for scale in ${SCALES:-22 24}; do
        small=$([ "$scale" -le 22 ] && echo 1 || echo 0)
        limit=${LIMIT:-$([ "$small" = 1 ] && echo 33 || echo 45)}
        roots=${ROOTS:-$([ "$small" = 1 ] && echo 2 || echo 1)}
        for group in ${PRIM_GROUPS:-kcore,scc,hits,eigenvector,katz triangles label_propagation \
                     edge_bc paths dijkstra}; do
            step "prims-$scale-${group%%,*}" "$limit" python -m frontier.cli bench \
                --device "$PRIMS_DEVICE" --kronecker "$scale" --primitives "$group" \
                --peers cusparse-spmv,scipy-csgraph --roots "$roots" --repeat "${REPEAT:-1}" \
                --warmup "${WARMUP:-1}" --results "$RESULTS" --markdown "$OUT/benchmarks.md"
            grep -h "valid\|failed\|Error" "$LOGS/prims-$scale-${group%%,*}.log" | tail -n 12
        done
    done
elif [ "$what" = largest ]; then
    scale=${2:?largest needs a scale}
    HYPOTHESIS_PROFILE=gpu step generator-tests 90 python -m pytest -m gpu -q \
        -p no:cacheprovider tests/test_generators.py tests/test_validate.py
    tail -n 3 "$LOGS/generator-tests.log"
    bench "kronecker-$scale" 330 --kronecker "$scale" --primitives bfs,dobfs,pagerank \
        --peers none --roots 4 --repeat 2
    bench kronecker-24 150 --kronecker 24 --peers none --roots 4 --repeat 2
elif [ "$what" != bench ]; then
    # The multi_gpu tests need two GPUs; with one they would fail, so they are left out.
    marks=gpu
    if [ "$(python -c 'import cupy; print(cupy.cuda.runtime.getDeviceCount())')" -lt 2 ]; then
        marks="gpu and not multi_gpu"
        echo "run_gpu.sh: one GPU here: the multi_gpu tests are not run"
    fi
    HYPOTHESIS_PROFILE=gpu step pytest-gpu 400 python -m pytest -m "$marks" -q -p no:cacheprovider \
        --durations=10
    tail -n 25 "$LOGS/pytest-gpu.log"
fi
[ "$what" = tests ] && exit $status
if [ "$what" = bench ] || [ "$what" = all ]; then

step bandwidth 60 python benchmarks/bandwidth.py 4
cat "$LOGS/bandwidth.log"

# BC copies the graph on each call: it goes last, so a time-out costs only BC.
bench kronecker-22 80 --kronecker 22 --primitives bfs,dobfs,sssp,cc,pagerank,bc
bench kronecker-24 140 --kronecker 24 --primitives bfs,dobfs,sssp,cc,pagerank,bc
bench kronecker-26 120 --kronecker 26 --primitives dobfs,bfs --peers none
# 2^14 vertices: small enough for NetworkX and for SciPy under --peers auto.
bench kronecker-14 50 --kronecker 14
# About 8,000 BFS levels from a typical root: one timed run per root.
bench grid-4096 100 --grid 4096x4096 --primitives bfs --repeat 1
# A path (a 1 x 20000 grid): thousands of one-vertex levels, the per-level overhead alone.
bench path-20000 60 --grid 1x20000 --primitives bfs --roots 2 --repeat 1 --peers none
fi

echo
shopt -s nullglob
all_files=("$RESULTS"/*.json)
# shared_parts.py's records have their own fields and were printed as its step ran
files=()
for file in "${all_files[@]}"; do
    case $file in *_shared-parts-*) ;; *) files+=("$file") ;; esac
done
if [ ${#files[@]} -gt 0 ]; then
    python -m frontier.bench "${files[@]}" || status=1
elif [ ${#all_files[@]} -eq 0 ] && [ "$what" != kernels ]; then
    echo "run_gpu.sh: no records were written" >&2
    status=1
fi
# One archive: the device tool brings back at most 8 files from $OUT.
tar -czf "$OUT/run_gpu-$what-$(date -u +%Y%m%dT%H%M%SZ).tar.gz" -C "$OUT" results logs \
    && rm -rf "$RESULTS" "$LOGS"
exit $status
