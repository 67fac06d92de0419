#!/usr/bin/env bash
# Old code against new, whole calls in alternating processes.
#
# Make the old tree here (the device machine gets the working tree, not .git),
# carry it, and run this there from the repository root:
#     mkdir -p .ab/old && git archive COMMIT frontier primitives partition | tar -x -C .ab/old
#     # device tool: carry [".ab"], command: bash benchmarks/ab_code.sh
# For each WORKLOAD:PRIMITIVE in ITEMS (benchmarks/kernel_times.py's names),
# ROUNDS times: the working tree, then the old tree, each a fresh process
# printing the wall time of one call (median of 5 after a warm-up).
set -u
cd "$(dirname "$0")/.."
OLD=${OLD:-.ab/old}
export PYTHONUNBUFFERED=1
for item in ${ITEMS:-path:bfs grid:bfs 14:bfs 24:bfs 24:dobfs 26:dobfs 24:sssp}; do
    workload=${item%%:*} name=${item##*:}
    for _ in $(seq "${ROUNDS:-2}"); do
        echo "new $(PYTHONPATH=. python benchmarks/kernel_times.py run "$workload" "$name" 2>&1 | tail -n 1)"
        echo "old $(cd "$OLD" && PYTHONPATH=. python "$OLDPWD/benchmarks/kernel_times.py" run "$workload" "$name" 2>&1 | tail -n 1)"
    done
done
