// Fused traversal kernels for Frontier's built-in functors.
//
// Load balancing: push kernels map one thread to one *edge* of the frontier.
// `ends` is the inclusive scan of the frontier vertices' degrees; an edge slot
// finds its vertex by binary search in it (merge-path style), so a hub's edges
// are spread over many threads instead of serialising one warp.
//
// V: vertex id type (int or long long), P: predecessor type, W: weight type.

typedef unsigned long long u64;

__device__ __forceinline__ long long segment_of(const long long* ends, long long count,
                                                long long slot) {
    long long lo = 0, hi = count;
    while (lo < hi) {
        long long mid = (lo + hi) >> 1;
        if (ends[mid] > slot) hi = mid; else lo = mid + 1;
    }
    return lo;
}

// Append `vertex` to `out` with one atomic per warp instead of one per thread.
template <typename V>
__device__ __forceinline__ void warp_append(bool take, V vertex, V* out, u64* out_count) {
    unsigned int active = __activemask();
    unsigned int takers = __ballot_sync(active, take);
    if (takers == 0) return;
    int lane = threadIdx.x & 31;
    int leader = __ffs(takers) - 1;
    u64 base = 0;
    if (lane == leader) base = atomicAdd(out_count, (u64)__popc(takers));
    base = __shfl_sync(active, base, leader);
    if (take) out[base + __popc(takers & ((1u << lane) - 1))] = vertex;
}

// Set bit `v`; true if this call set it (it was clear before).
__device__ __forceinline__ bool test_and_set(unsigned int* bits, long long v) {
    unsigned int bit = 1u << (v & 31);
    unsigned int* word = bits + (v >> 5);
    if (*((volatile unsigned int*)word) & bit) return false;
    return !(atomicOr(word, bit) & bit);
}

// visited bit v = (labels[v] != -1), one warp per 32-vertex word.
__global__ void labels_to_bits(const int* labels, long long n, unsigned int* bits) {
    long long stride = (long long)gridDim.x * blockDim.x;
    long long rounds = (n + stride - 1) / stride;
    long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    for (long long r = 0; r < rounds; ++r, v += stride) {
        unsigned int word = __ballot_sync(0xffffffffu, v < n && labels[v] != -1);
        if ((threadIdx.x & 31) == 0 && v < n) bits[v >> 5] = word;
    }
}

// BFS push: claim every unvisited destination of the frontier's out-edges.
// With `visited` (a bitmap of labels != -1, small enough to stay in L2) the
// test-and-set is done on bits; without it, by compare-and-swap on labels.
template <typename V, typename P>
__global__ void claim_push(const long long* offsets, const V* columns, const V* frontier,
                           const long long* ends, long long count, long long total,
                           unsigned int* visited, int* labels, int value, P* predecessor,
                           V* out, u64* out_count) {
    long long stride = (long long)gridDim.x * blockDim.x;
    long long rounds = (total + stride - 1) / stride;
    long long slot = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    // Every thread runs the same number of rounds so warp_append's ballots are full.
    for (long long r = 0; r < rounds; ++r, slot += stride) {
        bool take = false;
        V dst = 0;
        if (slot < total) {
            long long p = segment_of(ends, count, slot);
            V src = frontier[p];
            long long begin = offsets[src];
            long long first_slot = ends[p] - (offsets[src + 1] - begin);
            dst = columns[begin + (slot - first_slot)];
            if (visited) {
                take = test_and_set(visited, dst);
                if (take) labels[dst] = value;
            } else {
                take = labels[dst] == -1 && atomicCAS(labels + dst, -1, value) == -1;
            }
            if (take && predecessor) predecessor[dst] = (P)src;
        }
        warp_append(take, dst, out, out_count);
    }
}

// BFS pull: every candidate without a label scans its in-edges and takes the
// first source that is in the frontier (early exit).
template <typename V, typename P>
__global__ void claim_pull(const long long* in_offsets, const V* in_sources, long long n,
                           const bool* among, const bool* active,
                           int* labels, int value, P* predecessor, bool* out,
                           u64* out_count) {
    long long stride = (long long)gridDim.x * blockDim.x;
    unsigned int found = 0;
    for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
        if (among && !among[v]) continue;
        if (labels[v] != -1) continue;
        long long end = in_offsets[v + 1];
        for (long long i = in_offsets[v]; i < end; ++i) {
            V src = in_sources[i];
            if (active[src]) {
                labels[v] = value;
                if (predecessor) predecessor[v] = (P)src;
                out[v] = true;
                ++found;
                break;
            }
        }
    }
    for (int shift = 16; shift > 0; shift >>= 1) found += __shfl_down_sync(0xffffffffu, found, shift);
    if ((threadIdx.x & 31) == 0 && found) atomicAdd(out_count, (u64)found);
}

// Non-negative doubles order like their bit patterns, so atomicMin on the
// 64-bit pattern is an atomic min on the double.
__device__ __forceinline__ double atomic_min_nonnegative(double* address, double value) {
    u64 old = atomicMin((u64*)address, (u64)__double_as_longlong(value));
    return __longlong_as_double((long long)old);
}

template <typename W>
__device__ __forceinline__ double weight_of(const W* weights, long long edge) {
    return weights ? (double)weights[edge] : 1.0;
}

// SSSP push, pass 1: relax every out-edge of the frontier with atomic min;
// each vertex that improved is appended once (the `queued` bit).
template <typename V, typename W>
__global__ void relax_push(const long long* offsets, const V* columns, const W* weights,
                           const V* frontier, const long long* ends, long long count,
                           long long total, double* distance, unsigned int* queued,
                           V* out, u64* out_count) {
    long long stride = (long long)gridDim.x * blockDim.x;
    long long rounds = (total + stride - 1) / stride;
    long long slot = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    for (long long r = 0; r < rounds; ++r, slot += stride) {
        bool take = false;
        V dst = 0;
        if (slot < total) {
            long long p = segment_of(ends, count, slot);
            V src = frontier[p];
            long long begin = offsets[src];
            long long edge = begin + (slot - (ends[p] - (offsets[src + 1] - begin)));
            dst = columns[edge];
            double candidate = distance[src] + weight_of(weights, edge);
            if (candidate < distance[dst] &&
                candidate < atomic_min_nonnegative(distance + dst, candidate)) {
                take = test_and_set(queued, dst);
            }
        }
        warp_append(take, dst, out, out_count);
    }
}

// SSSP push, pass 2: every improved vertex takes as predecessor a frontier
// vertex whose edge gives exactly its new distance.
template <typename V, typename W, typename P>
__global__ void relax_predecessor(const long long* offsets, const V* columns, const W* weights,
                                  const V* frontier, const long long* ends, long long count,
                                  long long total, const double* distance,
                                  const unsigned int* queued, P* predecessor) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long slot = (long long)blockIdx.x * blockDim.x + threadIdx.x; slot < total;
         slot += stride) {
        long long p = segment_of(ends, count, slot);
        V src = frontier[p];
        long long begin = offsets[src];
        long long edge = begin + (slot - (ends[p] - (offsets[src + 1] - begin)));
        V dst = columns[edge];
        if ((queued[dst >> 5] & (1u << (dst & 31))) &&
            distance[src] + weight_of(weights, edge) == distance[dst]) {
            predecessor[dst] = (P)src;
        }
    }
}

// Clear the `queued` bits of the vertices in `ids`.
template <typename V>
__global__ void clear_bits(const V* ids, long long count, unsigned int* bits) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        V v = ids[i];
        atomicAnd(bits + (v >> 5), ~(1u << (v & 31)));
    }
}

// Connected components, hooking: for every edge of the listed vertices (whose
// neighbour is `active`, if given) the roots of the two endpoints each take
// the smaller of the two (atomic min). Over CSR this is a push over out-edges;
// over CSC a pull over in-edges: hooking is symmetric.
template <typename V, typename L>
__global__ void hook(const long long* offsets, const V* neighbours, const V* vertices,
                     const long long* ends, long long count, long long total,
                     const bool* active, L* labels) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long slot = (long long)blockIdx.x * blockDim.x + threadIdx.x; slot < total;
         slot += stride) {
        long long p = segment_of(ends, count, slot);
        V v = vertices[p];
        long long begin = offsets[v];
        V u = neighbours[begin + (slot - (ends[p] - (offsets[v + 1] - begin)))];
        if (active && !active[u]) continue;
        L v_root = labels[v], u_root = labels[u];
        if (v_root != u_root) {
            atomicMin(labels + v_root, u_root);
            atomicMin(labels + u_root, v_root);
        }
    }
}

// Sum over the edges of each listed vertex of values[neighbour] (times the
// edge weight): out[p] += ... for vertex vertices[p]. `edge_ids` maps a CSC
// position to its CSR edge id (null: the position is the id).
// E: edge id type (int or long long), T: value type (float or double).
template <typename V, typename E, typename W, typename T>
__global__ void gather_sum(const long long* offsets, const V* neighbours, const E* edge_ids,
                           const W* weights, const V* vertices, const long long* ends,
                           long long count, long long total, const T* values, T* out) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long slot = (long long)blockIdx.x * blockDim.x + threadIdx.x; slot < total;
         slot += stride) {
        long long p = segment_of(ends, count, slot);
        V v = vertices[p];
        long long begin = offsets[v];
        long long position = begin + (slot - (ends[p] - (offsets[v + 1] - begin)));
        T value = values[neighbours[position]];
        if (weights) value *= (T)weights[edge_ids ? edge_ids[position] : position];
        atomicAdd(out + p, value);
    }
}
