// Fused traversal kernels for Frontier's built-in functors.
//
// Every edge kernel takes (offsets, neighbours, vertices, ends, count, total,
// tile_first) first: the CSR or CSC arrays, the vertex list (null: all
// vertices), the inclusive scan of its degrees, `ends`, and the first list
// position of every tile.
//
// Load balancing (for_each_edge): the edge slots numbered by `ends` are cut
// into tiles of TILE slots. tile_starts finds every tile's first vertex at
// once; a block then takes a tile, stages the ends, ids and edge bases of the
// vertices it touches in shared memory, and maps each slot to its vertex by a
// binary search there. Threads of a warp take consecutive slots, so column
// reads are coalesced and a hub's edges are spread over many blocks.
//
// V: vertex id type (int or long long), P: predecessor type, W: weight type,
// D: distance type (float or double), L: label type, E: edge id type, T: value type.

typedef unsigned long long u64;

#define TILE_THREADS 256
#define ITEMS 4
#define TILE (TILE_THREADS * ITEMS)
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ long long segment_of(const long long* ends, long long count,
                                                long long slot) {
    long long lo = 0, hi = count;
    while (lo < hi) {
        long long mid = (lo + hi) >> 1;
        if (ends[mid] > slot) hi = mid; else lo = mid + 1;
    }
    return lo;
}

// The first list position whose edges reach into each tile: tile_first[t] is
// the position holding slot t * TILE (count for t = tiles, past the end).
// One thread per tile, all searches in parallel, so that a block never
// waits on a serial binary search in global memory before its tile.
__global__ void tile_starts(const long long* ends, long long count, long long total,
                            long long tiles, long long* tile_first) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t <= tiles;
         t += stride) {
        tile_first[t] = t == tiles ? count : segment_of(ends, count, t * TILE);
    }
}

// ends[p] = the sum of the degrees of vertices[0..p], by one block of
// TILE_THREADS threads: edges_of's scan of a short id list in one launch
// (CuPy takes a gather, a subtraction and a scan of several kernels). Each
// thread sums SCAN_ITEMS consecutive degrees; a block-wide scan of those
// sums places them; a carry runs from one chunk of the list to the next.
// With `counted`, the list's length is read from there (a kernel before
// wrote it; `count` is then unused); with `unit` > 1 a vertex counts
// ceil(degree / unit) (the pull's hubs: chunks of in-edges).
#define SCAN_ITEMS 16
template <typename V>
__global__ void degree_scan(const long long* offsets, const V* vertices, long long count,
                            const u64* counted, long long unit, long long* ends) {
    const int WARPS = TILE_THREADS / 32;
    __shared__ long long s_warp[WARPS];
    __shared__ long long s_carry;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (counted) count = (long long)*counted;
    if (threadIdx.x == 0) s_carry = 0;
    for (long long base = 0; base < count; base += (long long)TILE_THREADS * SCAN_ITEMS) {
        long long first = base + (long long)threadIdx.x * SCAN_ITEMS;
        long long running[SCAN_ITEMS];
        long long sum = 0;
        for (int k = 0; k < SCAN_ITEMS; ++k) {
            if (first + k < count) {
                V v = vertices[first + k];
                long long degree = offsets[v + 1] - offsets[v];
                sum += unit > 1 ? (degree + unit - 1) / unit : degree;
            }
            running[k] = sum;
        }
        long long inclusive = sum;  // of this thread's sums within its warp
        for (int offset = 1; offset < 32; offset <<= 1) {
            long long other = __shfl_up_sync(FULL_MASK, inclusive, offset);
            if (lane >= offset) inclusive += other;
        }
        if (lane == 31) s_warp[warp] = inclusive;
        __syncthreads();
        if (warp == 0) {
            long long total = lane < WARPS ? s_warp[lane] : 0;
            for (int offset = 1; offset < 32; offset <<= 1) {
                long long other = __shfl_up_sync(FULL_MASK, total, offset);
                if (lane >= offset) total += other;
            }
            if (lane < WARPS) s_warp[lane] = total;
        }
        __syncthreads();
        long long before = s_carry + (warp ? s_warp[warp - 1] : 0) + inclusive - sum;
        for (int k = 0; k < SCAN_ITEMS; ++k) {
            if (first + k < count) ends[first + k] = before + running[k];
        }
        __syncthreads();  // every thread has read s_carry and s_warp
        if (threadIdx.x == 0) s_carry += s_warp[WARPS - 1];
        __syncthreads();
    }
}

// Call visit(valid, p, v, edge) for every edge slot of the listed vertices:
// p is the position in the list, v = vertices[p] (or p if vertices is null),
// edge the CSR/CSC position. Every thread of the block makes the same calls
// (valid false past the end), so visit may use warp-wide operations.
template <typename V, typename Visit>
__device__ __forceinline__ void for_each_edge(const long long* offsets, const V* vertices,
                                              const long long* ends, long long count,
                                              long long total, const long long* tile_first,
                                              Visit visit) {
    __shared__ long long s_ends[TILE + 1];
    __shared__ long long s_base[TILE + 1];
    __shared__ V s_vertex[TILE + 1];
    long long tiles = (total + TILE - 1) / TILE;
    for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        long long start = tile * TILE;
        long long stop = min(start + (long long)TILE, total);
        long long first = tile_first[tile];
        long long last = min(tile_first[tile + 1], count - 1);
        // Zero-degree vertices inside the tile can make it touch more
        // vertices than there are slots; then search in global memory.
        int local = last - first + 1 <= TILE + 1 ? (int)(last - first + 1) : -1;
        for (int i = threadIdx.x; i < local; i += blockDim.x) {
            long long p = first + i;
            V v = vertices ? vertices[p] : (V)p;
            long long begin = offsets[v];
            s_ends[i] = ends[p];
            s_base[i] = begin - (ends[p] - (offsets[v + 1] - begin));
            s_vertex[i] = v;
        }
        __syncthreads();
        for (int j = 0; j < ITEMS; ++j) {
            long long slot = start + j * TILE_THREADS + threadIdx.x;
            bool valid = slot < stop;
            long long p = 0, edge = 0;
            V v = 0;
            if (valid && local > 0) {
                int lo = 0, hi = local;
                while (lo < hi) {
                    int mid = (lo + hi) >> 1;
                    if (s_ends[mid] > slot) hi = mid; else lo = mid + 1;
                }
                p = first + lo;
                v = s_vertex[lo];
                edge = s_base[lo] + slot;
            } else if (valid) {
                p = segment_of(ends, count, slot);
                v = vertices ? vertices[p] : (V)p;
                long long begin = offsets[v];
                edge = begin + (slot - (ends[p] - (offsets[v + 1] - begin)));
            }
            visit(valid, p, v, edge);
        }
        __syncthreads();
    }
}

// Append `vertex` to `out` (and `value` to `values`, unless null) with one
// atomic per warp instead of one per thread; every lane calls it.
template <typename V, typename P>
__device__ __forceinline__ void warp_append_pair(bool take, V vertex, P value, V* out,
                                                 P* values, u64* out_count) {
    unsigned int takers = __ballot_sync(FULL_MASK, take);
    if (takers == 0) return;
    int lane = threadIdx.x & 31;
    int leader = __ffs(takers) - 1;
    u64 base = 0;
    if (lane == leader) base = atomicAdd(out_count, (u64)__popc(takers));
    base = __shfl_sync(FULL_MASK, base, leader);
    if (take) {
        u64 at = base + __popc(takers & ((1u << lane) - 1));
        out[at] = vertex;
        if (values) values[at] = value;
    }
}

// Append `vertex` to `out` with one atomic per warp instead of one per thread.
template <typename V>
__device__ __forceinline__ void warp_append(bool take, V vertex, V* out, u64* out_count) {
    warp_append_pair(take, vertex, vertex, out, (V*)0, out_count);
}

// Set bit `v`; true if this call set it (it was clear before).
__device__ __forceinline__ bool test_and_set(unsigned int* bits, long long v) {
    unsigned int bit = 1u << (v & 31);
    unsigned int* word = bits + (v >> 5);
    // A plain (L1-cached) read may be stale, which only costs a needless
    // atomic: the atomicOr's answer decides.
    if (*word & bit) return false;
    return !(atomicOr(word, bit) & bit);
}

// The word of a bitmap for values[first .. first + 31]: bit j = (values[first + j] != unset).
// Read 16 bytes at a time when `values` starts on a 16-byte boundary (so does
// every word's first value) and the word is whole: whole sectors per load.
template <typename T>
__device__ __forceinline__ unsigned int pack_word(const T* values, T unset, long long first,
                                                  long long n, bool aligned) {
    constexpr int PER_LOAD = 16 / sizeof(T);
    unsigned int word = 0;
    if (aligned && first + 32 <= n) {
        const uint4* loads = reinterpret_cast<const uint4*>(values + first);
#pragma unroll
        for (int k = 0; k < 32 / PER_LOAD; ++k) {
            uint4 load = loads[k];
            const T* part = reinterpret_cast<const T*>(&load);
#pragma unroll
            for (int j = 0; j < PER_LOAD; ++j)
                word |= (unsigned int)(part[j] != unset) << (k * PER_LOAD + j);
        }
    } else {
        for (int j = 0; j < 32 && first + j < n; ++j)
            word |= (unsigned int)(values[first + j] != unset) << j;
    }
    return word;
}

// Bit v of `bits` = (values[v] != unset), or'd with bit v of `also` unless
// it is null: a visited bitmap from BFS labels (unset -1), a frontier's from
// its mask, what a pull need not look at (the labelled vertices and, in
// `also`, those without in-edges). One thread per 32-vertex word, which
// writes the word: no warp vote per value.
template <typename T>
__global__ void flags_to_bits(const T* values, T unset, long long n, bool aligned,
                              const unsigned int* also, unsigned int* bits) {
    long long stride = (long long)gridDim.x * blockDim.x;
    long long words = (n + 31) / 32;
    for (long long w = (long long)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += stride)
        bits[w] = pack_word(values, unset, w * 32, n, aligned) | (also ? also[w] : 0u);
}

// Bit v of `bits` = (v has no in-edge). One thread per vertex (coalesced
// reads of the offsets), a warp vote per word.
__global__ void no_in_edges_bits(const long long* in_offsets, long long n, unsigned int* bits) {
    long long stride = (long long)gridDim.x * blockDim.x;
    long long rounds = (n + stride - 1) / stride;
    long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    for (long long r = 0; r < rounds; ++r, v += stride) {  // every lane runs every round
        unsigned int word = __ballot_sync(FULL_MASK, v < n && in_offsets[v + 1] == in_offsets[v]);
        if ((threadIdx.x & 31) == 0 && v < n) bits[v >> 5] = word;
    }
}

// Add the block's three per-thread counts to tally[0..2]: a warp sum by
// shuffles, a block sum in shared memory, then one atomic per block and
// count (blocks of at most 1024 threads; every thread of the block calls it).
__device__ __forceinline__ void add_to_tally(u64 a, u64 b, u64 c, u64* tally) {
    __shared__ u64 sums[3][32];
    for (int offset = 16; offset > 0; offset >>= 1) {
        a += __shfl_down_sync(FULL_MASK, a, offset);
        b += __shfl_down_sync(FULL_MASK, b, offset);
        c += __shfl_down_sync(FULL_MASK, c, offset);
    }
    int warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
    if ((threadIdx.x & 31) == 0) {
        sums[0][warp] = a;
        sums[1][warp] = b;
        sums[2][warp] = c;
    }
    __syncthreads();
    if (threadIdx.x < 3) {
        u64 total = 0;
        for (int w = 0; w < warps; ++w) total += sums[threadIdx.x][w];
        if (total) atomicAdd(tally + threadIdx.x, total);
    }
}

// The direction rule's counts of a frontier given as ids (ids[0 .. count-1]):
// tally[0] += its vertices and, with `degrees`, tally[1] += their out-degrees
// and tally[2] += their in-degrees (in_offsets: the CSC's offsets, the CSR's
// on an undirected graph). With `visited` (a bitmap), sets their bits there.
// With `counted`, the list's length is read from there (a queue's counter):
// `count` is then only its capacity.
template <typename V>
__global__ void tally_ids(const long long* offsets, const long long* in_offsets, const V* ids,
                          long long count, const u64* counted, bool degrees,
                          unsigned int* visited, u64* tally) {
    if (counted) count = (long long)*counted;  // the length a kernel before wrote
    long long stride = (long long)gridDim.x * blockDim.x;
    long long rounds = (count + stride - 1) / stride;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    u64 vertices = 0, out = 0, in = 0;
    for (long long r = 0; r < rounds; ++r, i += stride) {
        if (i < count) {
            V v = ids[i];
            vertices += 1;
            if (degrees) {
                out += offsets[v + 1] - offsets[v];
                in += in_offsets[v + 1] - in_offsets[v];
            }
            if (visited) atomicOr(visited + (v >> 5), 1u << (v & 31));
        }
    }
    add_to_tally(vertices, out, in, tally);
}

// tally_ids's counts of a frontier given as a mask of n flags; also writes
// its bitmap into `bits` (what a pull reads the frontier from) and, with
// `visited`, adds it there. One thread per 32-vertex word (16-byte loads).
__global__ void tally_mask(const long long* offsets, const long long* in_offsets,
                           const bool* mask, long long n, bool aligned, bool degrees,
                           unsigned int* bits, unsigned int* visited, u64* tally) {
    long long stride = (long long)gridDim.x * blockDim.x;
    long long words = (n + 31) / 32;
    long long rounds = (words + stride - 1) / stride;
    long long w = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    u64 vertices = 0, out = 0, in = 0;
    for (long long r = 0; r < rounds; ++r, w += stride) {
        if (w >= words) continue;
        unsigned int word = pack_word(mask, false, w * 32, n, aligned);
        bits[w] = word;
        if (visited && word) visited[w] |= word;
        vertices += __popc(word);
        for (; degrees && word; word &= word - 1) {
            long long v = w * 32 + __ffs(word) - 1;
            out += offsets[v + 1] - offsets[v];
            in += in_offsets[v + 1] - in_offsets[v];
        }
    }
    add_to_tally(vertices, out, in, tally);
}

// degrees[i] = out-degree of vertices[i]: the gather edges_of scans for a list
// longer than degree_scan takes (CuPy needs an addition, two gathers and a
// subtraction, each a launch and a pass).
template <typename V>
__global__ void list_degrees(const long long* offsets, const V* vertices, long long count,
                             long long* degrees) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        V v = vertices[i];
        degrees[i] = offsets[v + 1] - offsets[v];
    }
}

// BFS push: claim every unvisited destination of the frontier's out-edges by
// compare-and-swap on its label; each winner is appended to `out` once.
template <typename V, typename P>
__global__ void claim_push(const long long* offsets, const V* columns, const V* frontier,
                           const long long* ends, long long count, long long total,
                           const long long* tile_first, int* labels, int value,
                           P* predecessor, V* out, u64* out_count) {
    for_each_edge(offsets, frontier, ends, count, total, tile_first,
                  [&](bool valid, long long, V src, long long edge) {
        bool take = false;
        V dst = 0;
        if (valid) {
            dst = columns[edge];
            take = labels[dst] == -1 && atomicCAS(labels + dst, -1, value) == -1;
            if (take && predecessor) predecessor[dst] = (P)src;
        }
        warp_append(take, dst, out, out_count);
    });
}

// BFS push for a large level, output as a dense mask. No thread needs to know
// whether it won, so nothing waits on an atomic's answer: a vertex whose
// visited bit is clear gets the bit (a fire-and-forget atomic), its label,
// an adjacent frontier vertex as predecessor and its mask entry. Several
// threads may do so for one vertex; they all write valid values.
template <typename V, typename P>
__global__ void claim_push_dense(const long long* offsets, const V* columns, const V* frontier,
                                 const long long* ends, long long count, long long total,
                                 const long long* tile_first, unsigned int* visited,
                                 int* labels, int value, P* predecessor, bool* out) {
    for_each_edge(offsets, frontier, ends, count, total, tile_first,
                  [&](bool valid, long long, V src, long long edge) {
        if (!valid) return;
        V dst = columns[edge];
        unsigned int bit = 1u << (dst & 31);
        unsigned int* word = visited + (dst >> 5);
        if (*word & bit) return;
        atomicOr(word, bit);
        labels[dst] = value;
        if (predecessor) predecessor[dst] = (P)src;
        out[dst] = true;
    });
}

// BFS push for a small frontier of low-degree vertices (a road network's
// levels): one thread per frontier vertex walks its edges, so a level is one
// launch with no degree scan. Every lane runs max_degree rounds so that
// warp_append sees full warps.
template <typename V, typename P>
__global__ void claim_push_small(const long long* offsets, const V* columns, const V* frontier,
                                 long long count, int max_degree, int* labels, int value,
                                 P* predecessor, V* out, u64* out_count) {
    long long stride = (long long)gridDim.x * blockDim.x;
    long long rounds = (count + stride - 1) / stride;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    for (long long r = 0; r < rounds; ++r, i += stride) {
        V src = 0;
        long long begin = 0, end = 0;
        if (i < count) {
            src = frontier[i];
            begin = offsets[src];
            end = offsets[src + 1];
        }
        for (int j = 0; j < max_degree; ++j) {
            bool take = false;
            V dst = 0;
            if (begin + j < end) {
                dst = columns[begin + j];
                take = labels[dst] == -1 && atomicCAS(labels + dst, -1, value) == -1;
                if (take && predecessor) predecessor[dst] = (P)src;
            }
            warp_append(take, dst, out, out_count);
        }
    }
}

// For this lane's vertex, whose in-edges are in_sources[begin, end): the
// first source set in the frontier bitmap `active`, in `parent`; false if
// none. A list of at most warp_min edges is scanned by its lane alone, a
// longer one by the whole warp, 32 edges at a time, until a hit. Every lane
// of the warp must call.
template <typename V>
__device__ __forceinline__ bool find_parent(const V* in_sources, long long begin, long long end,
                                            long long warp_min, const unsigned int* active,
                                            V& parent) {
    const int lane = threadIdx.x & 31;
    bool found = false;
    const bool alone = end - begin <= warp_min;
    for (unsigned int long_lists = __ballot_sync(FULL_MASK, !alone); long_lists;
         long_lists &= long_lists - 1) {
        const int owner = __ffs(long_lists) - 1;
        const long long stop = __shfl_sync(FULL_MASK, end, owner);
        for (long long first = __shfl_sync(FULL_MASK, begin, owner); first < stop;
             first += 32) {
            V src = 0;
            bool hit = false;
            if (first + lane < stop) {
                src = in_sources[first + lane];
                hit = (active[src >> 5] >> (src & 31)) & 1u;
            }
            const unsigned int hits = __ballot_sync(FULL_MASK, hit);
            if (hits) {
                const V first_hit = __shfl_sync(FULL_MASK, src, __ffs(hits) - 1);
                if (lane == owner) {
                    found = true;
                    parent = first_hit;
                }
                break;
            }
        }
    }
    if (alone) {
        for (long long i = begin; i < end; ++i) {
            const V src = in_sources[i];
            if ((active[src >> 5] >> (src & 31)) & 1u) {
                parent = src;
                return true;
            }
        }
    }
    return found;
}

// A pull's claim, by the one thread that found `v` an in-neighbour `src` in
// the frontier (no race: each candidate is scanned by one thread or warp).
template <typename V, typename P>
__device__ __forceinline__ void claim_from(long long v, V src, int* labels, int value,
                                           P* predecessor, bool* out) {
    labels[v] = value;
    if (predecessor) predecessor[v] = (P)src;
    out[v] = true;
}

// BFS pull: every candidate without a label looks over its in-edges for a
// source in the frontier (`active`, a bitmap) and takes the first it finds.
// A set bit of `skip` (optional) passes a vertex by without reading its
// label: one labelled already, or that nothing can claim.
// How a candidate is scanned depends on its in-degree d: d <= warp_min, by
// its thread alone; up to hub_min, by its thread's whole warp, 32 in-edges a
// round (one coalesced load), stopping at the first round with a hit; above
// hub_min it is only appended to `hubs`, whose in-edges claim_pull_hubs
// spreads over the whole grid. So no thread or warp walks a hub's edges
// while the rest of the device waits.
template <typename V, typename P>
__global__ void claim_pull(const long long* in_offsets, const V* in_sources, long long n,
                           const bool* among, const unsigned int* skip,
                           const unsigned int* active, long long warp_min, long long hub_min,
                           int* labels, int value, P* predecessor, bool* out, V* hubs,
                           u64* hub_count) {
    long long stride = (long long)gridDim.x * blockDim.x;
    long long rounds = (n + stride - 1) / stride;
    long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    for (long long r = 0; r < rounds; ++r, v += stride) {  // every lane runs every round
        long long begin = 0, end = 0;
        if (v < n && !(skip && ((skip[v >> 5] >> (v & 31)) & 1u)) &&
            (!among || among[v]) && labels[v] == -1) {
            begin = in_offsets[v];
            end = in_offsets[v + 1];
        }
        bool hub = end - begin > hub_min;
        warp_append(hub, (V)v, hubs, hub_count);
        if (hub) end = begin;
        V parent = 0;
        if (find_parent(in_sources, begin, end, warp_min, active, parent))
            claim_from(v, parent, labels, value, predecessor, out);
    }
}

// BFS pull for the hubs claim_pull set aside (their number in *hub_count),
// with no read on the host: each hub's in-edges are cut into chunks of
// `chunk`, chunk_ends is the inclusive scan of the chunks per hub
// (degree_scan with unit = chunk), and the blocks of a fixed grid take the
// chunks in turn, so a hub's edges spread over the grid. The first edge
// from the frontier to claim a hub wins; once a hub has its label, its
// other edges are skipped (each thread looks before each edge).
template <typename V, typename P>
__global__ void claim_pull_hub_chunks(const long long* in_offsets, const V* in_sources,
                                      const V* hubs, const u64* hub_count,
                                      const long long* chunk_ends, long long chunk,
                                      const unsigned int* active, int* labels, int value,
                                      P* predecessor, bool* out) {
    __shared__ long long s_hub;
    long long count = (long long)*hub_count;
    long long chunks = count ? chunk_ends[count - 1] : 0;
    for (long long c = blockIdx.x; c < chunks; c += gridDim.x) {
        __syncthreads();  // every thread has read s_hub of the last chunk
        if (threadIdx.x == 0) s_hub = segment_of(chunk_ends, count, c);
        __syncthreads();
        long long h = s_hub;
        V hub = hubs[h];
        long long begin = in_offsets[hub] + (c - (h ? chunk_ends[h - 1] : 0)) * chunk;
        long long end = min(in_offsets[hub + 1], begin + chunk);
        for (long long edge = begin + threadIdx.x; edge < end && labels[hub] == -1;
             edge += blockDim.x) {
            V src = in_sources[edge];
            if (((active[src >> 5] >> (src & 31)) & 1u) &&
                atomicCAS(labels + hub, -1, value) == -1) {
                if (predecessor) predecessor[hub] = (P)src;
                out[hub] = true;
            }
        }
    }
}

// Atomic minimum of a float or double of either sign, on its bit pattern;
// returns the old value. With the sign bit clear the value orders like its
// pattern read as a signed integer, below which every negative value lies:
// atomicMin on that. With the sign bit set, larger patterns read as unsigned
// are more negative, and every non-negative value's pattern is smaller:
// atomicMax on that. (-0.0 may replace +0.0: they compare equal.)
__device__ __forceinline__ double atomic_min_float(double* address, double value) {
    long long bits = __double_as_longlong(value);
    long long old = bits >= 0 ? atomicMin((long long*)address, bits)
                              : (long long)atomicMax((u64*)address, (u64)bits);
    return __longlong_as_double(old);
}

__device__ __forceinline__ float atomic_min_float(float* address, float value) {
    int bits = __float_as_int(value);
    int old = bits >= 0 ? atomicMin((int*)address, bits)
                        : (int)atomicMax((unsigned int*)address, (unsigned int)bits);
    return __int_as_float(old);
}

template <typename W>
__device__ __forceinline__ double weight_of(const W* weights, long long edge) {
    return weights ? (double)weights[edge] : 1.0;
}

// SSSP push, pass 1: relax every out-edge of the frontier with atomic min;
// each vertex that improved is appended once (the `queued` bit). A frontier
// vertex offers the distance it had when the step began (`start[p]`, for list
// position p), as the general path does: then an improved vertex's new
// distance is exactly some offer, and predecessors cannot form a cycle even
// over zero-weight edges. An offer is summed in double and rounded to the
// distance type D (float or double), as NumPy rounds the general path's sum;
// distances and weights may have either sign.
template <typename V, typename W, typename D>
__global__ void relax_push(const long long* offsets, const V* columns, const V* frontier,
                           const long long* ends, long long count, long long total,
                           const long long* tile_first, const W* weights, const D* start,
                           D* distance, unsigned int* queued, V* out, u64* out_count) {
    for_each_edge(offsets, frontier, ends, count, total, tile_first,
                  [&](bool valid, long long p, V, long long edge) {
        bool take = false;
        V dst = 0;
        if (valid) {
            dst = columns[edge];
            D candidate = (D)(start[p] + weight_of(weights, edge));
            if (candidate < distance[dst] &&
                candidate < atomic_min_float(distance + dst, candidate)) {
                take = test_and_set(queued, dst);
            }
        }
        warp_append(take, dst, out, out_count);
    });
}

// SSSP push, pass 2: every improved vertex takes as predecessor a frontier
// vertex whose offer is exactly its new distance.
template <typename V, typename W, typename D, typename P>
__global__ void relax_predecessor(const long long* offsets, const V* columns, const V* frontier,
                                  const long long* ends, long long count, long long total,
                                  const long long* tile_first, const W* weights,
                                  const D* start, const D* distance,
                                  const unsigned int* queued, P* predecessor) {
    for_each_edge(offsets, frontier, ends, count, total, tile_first,
                  [&](bool valid, long long p, V src, long long edge) {
        if (!valid) return;
        V dst = columns[edge];
        if ((queued[dst >> 5] & (1u << (dst & 31))) &&
            (D)(start[p] + weight_of(weights, edge)) == distance[dst]) {
            predecessor[dst] = (P)src;
        }
    });
}

// The two SSSP passes for a small frontier of low-degree vertices (a road
// network's levels), as claim_push_small: one thread per frontier vertex
// walks its edges, so no degree scan. `start[i]` is frontier[i]'s offer base.
template <typename V, typename W, typename D>
__global__ void relax_push_small(const long long* offsets, const V* columns, const V* frontier,
                                 long long count, int max_degree, const W* weights,
                                 const D* start, D* distance, unsigned int* queued, V* out,
                                 u64* out_count) {
    long long stride = (long long)gridDim.x * blockDim.x;
    long long rounds = (count + stride - 1) / stride;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    for (long long r = 0; r < rounds; ++r, i += stride) {
        long long begin = 0, end = 0;
        if (i < count) {
            begin = offsets[frontier[i]];
            end = offsets[frontier[i] + 1];
        }
        for (int j = 0; j < max_degree; ++j) {  // every lane, for warp_append
            bool take = false;
            V dst = 0;
            if (begin + j < end) {
                dst = columns[begin + j];
                D candidate = (D)(start[i] + weight_of(weights, begin + j));
                if (candidate < distance[dst] &&
                    candidate < atomic_min_float(distance + dst, candidate)) {
                    take = test_and_set(queued, dst);
                }
            }
            warp_append(take, dst, out, out_count);
        }
    }
}

template <typename V, typename W, typename D, typename P>
__global__ void relax_predecessor_small(const long long* offsets, const V* columns,
                                        const V* frontier, long long count, const W* weights,
                                        const D* start, const D* distance,
                                        const unsigned int* queued, P* predecessor) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        V src = frontier[i];
        for (long long edge = offsets[src]; edge < offsets[src + 1]; ++edge) {
            V dst = columns[edge];
            if ((queued[dst >> 5] & (1u << (dst & 31))) &&
                (D)(start[i] + weight_of(weights, edge)) == distance[dst]) {
                predecessor[dst] = (P)src;
            }
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

// The root of x's tree in `labels` (the label that labels itself), halving
// the path on the way: a vertex that is not a root may take its
// grandparent, an ancestor, whatever other threads do meanwhile (a label
// only ever moves to an ancestor, and roots are changed by compare-and-swap).
template <typename L>
__device__ __forceinline__ L find_root(L* labels, L x) {
    L up = labels[x];
    while (up != x) {
        L next = labels[up];
        if (next != up) labels[x] = next;
        x = up;
        up = next;
    }
    return x;
}

__device__ __forceinline__ int swap_if(int* address, int expected, int value) {
    return atomicCAS(address, expected, value);
}

__device__ __forceinline__ long long swap_if(long long* address, long long expected,
                                             long long value) {
    return (long long)atomicCAS((u64*)address, (u64)expected, (u64)value);
}

// Connected components, hooking: for every edge of the listed vertices (whose
// neighbour is `active`, if given) the trees of the two endpoints are joined,
// the larger root linked under the smaller by compare-and-swap, retried from
// the new roots when another thread linked one first (a lock-free union-find,
// as ECL-CC's). Every root stays the smallest id of its tree, so one pass
// over a component's edges leaves it one tree rooted at its smallest vertex.
// Over CSR this is a push over out-edges; over CSC a pull over in-edges:
// hooking is symmetric.
template <typename V, typename L>
__global__ void hook(const long long* offsets, const V* neighbours, const V* vertices,
                     const long long* ends, long long count, long long total,
                     const long long* tile_first, const bool* active, L* labels) {
    for_each_edge(offsets, vertices, ends, count, total, tile_first,
                  [&](bool valid, long long, V v, long long edge) {
        if (!valid) return;
        V u = neighbours[edge];
        if (active && !active[u]) return;
        L v_root = find_root(labels, (L)v), u_root = find_root(labels, (L)u);
        while (v_root != u_root) {
            L high = max(v_root, u_root), low = min(v_root, u_root);
            L seen = swap_if(labels + high, high, low);
            if (seen == high) break;  // linked
            v_root = find_root(labels, seen);
            u_root = find_root(labels, low);
        }
    });
}

// The slot of caller id `vertex` in a part's slot table (frontier.slots.SlotTable):
// ids[0, owned) and ids[owned, slots) are each sorted; -1 where it has none.
__device__ __forceinline__ long long first_not_below(const long long* ids, long long low,
                                                     long long high, long long vertex) {
    while (low < high) {
        const long long middle = low + ((high - low) >> 1);
        if (ids[middle] < vertex) low = middle + 1;
        else high = middle;
    }
    return low;
}

__device__ __forceinline__ long long slot_in_table(const long long* ids, long long owned,
                                                   long long slots, long long vertex) {
    long long at = first_not_below(ids, 0, owned, vertex);
    if (at < owned && ids[at] == vertex) return at;
    at = first_not_below(ids, owned, slots, vertex);
    return at < slots && ids[at] == vertex ? at : -1;
}

// Connected components' hooking on a part of a larger graph, whose labels
// are caller ids (HookRoots with a slot table): for every edge of the listed
// vertices (whose neighbour is `active`, if given) the root each endpoint's
// label names takes the other endpoint's label where that root has a slot
// here, and each endpoint takes the other's label, all by atomic minimum:
// the functor's array operations in one pass, labels only going down.
template <typename V, typename L>
__global__ void hook_slots(const long long* offsets, const V* neighbours, const V* vertices,
                           const long long* ends, long long count, long long total,
                           const long long* tile_first, const bool* active, L* labels,
                           const long long* slot_ids, long long owned, long long slots) {
    for_each_edge(offsets, vertices, ends, count, total, tile_first,
                  [&](bool valid, long long, V v, long long edge) {
        if (!valid) return;
        const V u = neighbours[edge];
        if (active && !active[u]) return;
        const L v_label = labels[v], u_label = labels[u];
        if (v_label == u_label) return;
        const long long v_root = slot_in_table(slot_ids, owned, slots, (long long)v_label);
        const long long u_root = slot_in_table(slot_ids, owned, slots, (long long)u_label);
        if (v_root >= 0) atomicMin(labels + v_root, u_label);
        if (u_root >= 0) atomicMin(labels + u_root, v_label);
        atomicMin(labels + v, u_label);
        atomicMin(labels + u, v_label);
    });
}

// Pointer jumping on a part whose labels are caller ids: every listed slot
// (all if `ids` is null) follows its labels while they name a slot here, to
// a root (a label naming itself) or a label with no slot here, and takes it.
template <typename L>
__global__ void point_to_roots_slots(const L* ids, long long count, L* labels,
                                     const long long* slot_ids, long long owned,
                                     long long slots) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        const L v = ids ? ids[i] : (L)i;
        L label = labels[v];
        for (;;) {
            const long long slot = slot_in_table(slot_ids, owned, slots, (long long)label);
            if (slot < 0) break;
            const L up = labels[slot];
            if (up == label) break;
            label = up;
        }
        labels[v] = label;
    }
}

// Connected components' pointer jumping: every listed vertex (all if `ids` is
// null) follows its labels to the root of its tree (the label that labels
// itself) and takes it. Other threads shorten the same paths meanwhile; a
// label only ever moves to an ancestor, so every read is one.
template <typename L>
__global__ void point_to_roots(const L* ids, long long count, L* labels) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        L v = ids ? ids[i] : (L)i;
        L root = labels[v];
        for (L up = labels[root]; up != root; up = labels[root]) root = up;
        labels[v] = root;
    }
}

// Sum over the edges of each listed vertex (all vertices if `vertices` is
// null) of values[neighbour], times the edge weight if `weights` is given:
// out[p] for list position p. `edge_ids` maps a CSC position to its CSR edge
// id (null: the position is the id). A warp first sums its consecutive slots
// per vertex (segmented shuffle scan), so each vertex costs about one atomic
// per warp it spans.
template <typename V, typename E, typename W, typename T>
__global__ void gather_sum(const long long* offsets, const V* neighbours, const V* vertices,
                           const long long* ends, long long count, long long total,
                           const long long* tile_first, const E* edge_ids, const W* weights,
                           const T* values, T* out) {
    int lane = threadIdx.x & 31;
    for_each_edge(offsets, vertices, ends, count, total, tile_first,
                  [&](bool valid, long long p, V, long long edge) {
        T value = 0;
        long long key = -1;
        if (valid) {
            value = values[neighbours[edge]];
            if (weights) value *= (T)weights[edge_ids ? (long long)edge_ids[edge] : edge];
            key = p;
        }
        for (int shift = 1; shift < 32; shift <<= 1) {
            T left = __shfl_up_sync(FULL_MASK, value, shift);
            long long left_key = __shfl_up_sync(FULL_MASK, key, shift);
            if (lane >= shift && left_key == key) value += left;
        }
        long long next_key = __shfl_down_sync(FULL_MASK, key, 1);
        if (valid && (lane == 31 || next_key != key)) atomicAdd(out + p, value);
    });
}

// ---- Several BFS levels in one launch (frontier.replay) ----------------------
//
// claim_levels and claim_levels_block run claim_push level after level while
// the frontier stays small, so that a long, thin traversal (a road network,
// a grid) costs a barrier a level instead of a host round trip. Both write
// `state` (u64, zeroed by the host): the size of the frontier of level k at
// [k % 3], and the levels run at [9]; claim_levels also keeps the frontiers'
// out-edges at [3..5], their widest out-degree at [6..8] and its barrier's
// arrivals at [10]. Level k claims with label value + k and appends to
// queue1 when k is odd, else to queue0 (so an input kept in queue1 is read
// before it is overwritten). On a graph of small degrees (`width`, a power
// of two at least the largest out-degree, not 0) a frontier vertex's edges
// are taken by `width` consecutive threads, one each, so that a level is a
// single chain of dependent loads; on others a warp walks a vertex.
//
// Under an automatic direction (frontier.AutoDirection) the levels are the
// push levels of a rule that has not pulled yet: with `alpha` >= 0 both
// kernels count each frontier's out-edges ([3..5]) and in-edges ([11..13];
// `in_offsets` null: the out-edges, an undirected graph's) and stop before a
// level for which Beamer's rule pulls: its out-edges times alpha exceed the
// in-edges of the vertices not visited yet (`unexplored` when the launch
// starts, less the in-edges of each frontier decided here). The input's
// level was decided by the host, unless `check_first`. They write the
// vertices and in-edges of the frontiers they decided at [14] and [15] (for
// the host's count), and [16] = 1 when the rule stopped them. A negative
// alpha runs the levels without the rule (BFS, or an automatic direction
// that pushes for good); [14] then counts the levels' vertices all the same.

__device__ __forceinline__ u64 load_volatile(const u64* p) {
    return *(const volatile u64*)p;
}

// Every block waits here for all the others. The grid must be co-resident
// (the host sizes it from the kernel's registers); `passed` counts the
// arrivals of all barriers so far, so the counter never needs a reset. The
// fences make the writes before the barrier visible to the reads after it.
__device__ __forceinline__ void grid_barrier(u64* arrivals, u64& passed) {
    __syncthreads();
    passed += gridDim.x;
    if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd(arrivals, 1ull);
        while (load_volatile(arrivals) < passed) { }
        __threadfence();
    }
    __syncthreads();
}

// Add a warp's `sum` to *sum_to and its largest `widest` to *widest_to, one
// atomic each per warp (every lane of the warp must call).
__device__ __forceinline__ void warp_add_max(u64 sum, u64 widest, u64* sum_to, u64* widest_to) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        sum += __shfl_down_sync(FULL_MASK, sum, offset);
        widest = max(widest, __shfl_down_sync(FULL_MASK, widest, offset));
    }
    if ((threadIdx.x & 31) == 0 && sum) {
        atomicAdd(sum_to, sum);
        atomicMax(widest_to, widest);
    }
}

// Add a warp's `sum` to *to, one atomic per warp (every lane of the warp must call).
__device__ __forceinline__ void warp_sum_add(u64 sum, u64* to) {
    for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(FULL_MASK, sum, offset);
    if ((threadIdx.x & 31) == 0 && sum) atomicAdd(to, sum);
}

// The out-degree of v, and its in-degree (`in_offsets` null: the out-degree).
__device__ __forceinline__ void degrees_of(const long long* offsets, const long long* in_offsets,
                                           long long v, u64& out, u64& in) {
    out = (u64)(offsets[v + 1] - offsets[v]);
    in = in_offsets ? (u64)(in_offsets[v + 1] - in_offsets[v]) : out;
}

// Beamer's rule on the device: whether a frontier of `out_edges` out-edges
// and `in_edges` in-edges pulls, `unexplored` in-edges being unvisited before
// it; as frontier.AutoDirection decides it on the host (double products).
__device__ __forceinline__ bool beamer_pulls(u64 out_edges, u64 in_edges, long long unexplored,
                                             double alpha) {
    return (double)out_edges * alpha > (double)(unexplored - (long long)in_edges);
}

// Claim `dst` for `src` at `label` (one compare-and-swap, no read first: a
// level of a thin traversal is a chain of dependent loads).
template <typename V, typename P>
__device__ __forceinline__ bool claim_edge(int* labels, int label, P* predecessor, V src, V dst) {
    if (atomicCAS(labels + dst, -1, label) != -1) return false;
    if (predecessor) predecessor[dst] = (P)src;
    return true;
}

// Item t of a level whose vertices have `width` items each (a power of two
// at least the largest out-degree): the CSR position of edge t % width of
// vertex `src`, the level's vertex t / width; false past its degree.
template <typename V>
__device__ __forceinline__ bool item_edge(const long long* offsets, V src, long long t,
                                          int width, long long& edge) {
    edge = offsets[src] + (t & (width - 1));
    return edge < offsets[src + 1];
}

// Item t as item_edge takes it: the destination, if the edge exists and its
// claim won.
template <typename V, typename P>
__device__ __forceinline__ bool claim_item(const long long* offsets, const V* columns, V src,
                                           long long t, int width, int* labels, int label,
                                           P* predecessor, V& dst) {
    long long edge;
    if (!item_edge(offsets, src, t, width, edge)) return false;
    dst = columns[edge];
    return claim_edge(labels, label, predecessor, src, dst);
}

// Up to max_levels levels by the whole grid, with a grid-wide barrier
// between levels. With `width`, a level runs while its frontier has from
// lower_limit to upper_limit vertices; without, while it has at most
// upper_limit out-edges and no vertex of more than widest_limit. The rule's
// arguments (alpha, unexplored, check_first, in_offsets) as above.
template <typename V, typename P>
__global__ void claim_levels(const long long* offsets, const V* columns, const V* input,
                             long long input_count, V* queue0, V* queue1, u64* state,
                             int* labels, int value, P* predecessor, int max_levels,
                             int width, u64 lower_limit, u64 upper_limit, u64 widest_limit,
                             double alpha, long long unexplored, int check_first,
                             const long long* in_offsets) {
    const long long thread = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long threads = (long long)gridDim.x * blockDim.x;
    const int lane = threadIdx.x & 31;
    const bool counting = alpha >= 0.0;
    u64 passed = 0;
    if (!width || counting) {  // the input's edges and widest out-degree, as a level counts its output's
        u64 sum = 0, in_sum = 0, widest = 0;
        for (long long i = thread; i - lane < input_count; i += threads) {
            u64 degree = 0, in_degree = 0;
            if (i < input_count) degrees_of(offsets, in_offsets, input[i], degree, in_degree);
            sum += degree;
            in_sum += in_degree;
            widest = max(widest, degree);
        }
        warp_add_max(sum, widest, state + 3, state + 6);
        if (counting) warp_sum_add(in_sum, state + 11);
    }
    if (thread == 0) state[0] = (u64)input_count;
    grid_barrier(state + 10, passed);
    u64 visited = 0;       // vertices of the levels run (the input's if check_first)
    long long consumed = 0;  // in-edges of the frontiers decided here
    int k = 0;
    for (; k < max_levels; ++k) {
        const int slot = k % 3, next = (k + 1) % 3, stale = (k + 2) % 3;
        const u64 count = load_volatile(state + slot);
        const u64 widest_in = load_volatile(state + 6 + slot);
        if (count == 0 || (width ? count < lower_limit || count > upper_limit
                                 : load_volatile(state + 3 + slot) > upper_limit
                                   || widest_in > widest_limit))
            break;
        if (k > 0 || check_first) {
            if (counting) {
                const u64 in_edges = load_volatile(state + 11 + slot);
                if (beamer_pulls(load_volatile(state + 3 + slot), in_edges,
                                 unexplored - consumed, alpha)) {
                    if (thread == 0) state[16] = 1;
                    break;
                }
                consumed += (long long)in_edges;
            }
            visited += count;
        }
        const V* in = k == 0 ? input : (k & 1) ? queue0 : queue1;
        V* out = (k & 1) ? queue1 : queue0;
        if (thread == 0) state[stale] = state[3 + stale] = state[6 + stale] = state[11 + stale] = 0;
        const int label = value + k;
        u64 sum = 0, in_sum = 0, widest = 0;
        if (width) {
            const long long items = (long long)count * width;
            for (long long t = thread; t - lane < items; t += threads) {
                V dst = 0;
                bool take = t < items && claim_item(offsets, columns, __ldcg(in + t / width),
                                                    t, width, labels, label, predecessor, dst);
                if (take && counting) {
                    u64 degree, in_degree;
                    degrees_of(offsets, in_offsets, dst, degree, in_degree);
                    sum += degree;
                    in_sum += in_degree;
                }
                warp_append(take, dst, out, state + next);
            }
        } else {
            const long long warp = thread >> 5, warps = threads >> 5;
            for (long long w = warp; w < (long long)count; w += warps) {
                V src = __ldcg(in + w);
                long long end = offsets[src + 1];
                for (long long first = offsets[src]; first < end; first += 32) {
                    V dst = 0;
                    bool take = false;
                    if (first + lane < end) {
                        dst = columns[first + lane];
                        take = claim_edge(labels, label, predecessor, src, dst);
                        if (take) {
                            u64 degree, in_degree;
                            degrees_of(offsets, in_offsets, dst, degree, in_degree);
                            sum += degree;
                            in_sum += in_degree;
                            widest = max(widest, degree);
                        }
                    }
                    warp_append(take, dst, out, state + next);
                }
            }
        }
        if (!width || counting) warp_add_max(sum, widest, state + 3 + next, state + 6 + next);
        if (counting) warp_sum_add(in_sum, state + 11 + next);
        if (thread == 0) state[9] = (u64)(k + 1);
        grid_barrier(state + 10, passed);
    }
    if (thread == 0) {
        state[14] = visited;
        state[15] = (u64)consumed;
    }
}

// Up to max_levels levels of a small frontier by one block: a level ends at
// a __syncthreads instead of a grid-wide barrier, and the output's length is
// counted in shared memory. Runs while the frontier has at most
// upper_limit vertices (`width` as for claim_levels, not 0; the rule's
// arguments as above). At the end, the last frontier's size, out-edges and
// in-edges are at [k % 3], [3 + k % 3] and [11 + k % 3] (edges when
// counting), k the levels run.
template <typename V, typename P>
__global__ void __launch_bounds__(1024) claim_levels_block(const long long* offsets, const V* columns, const V* input,
                                   long long input_count, V* queue0, V* queue1, u64* state,
                                   int* labels, int value, P* predecessor, int max_levels,
                                   int width, u64 upper_limit, double alpha,
                                   long long unexplored, int check_first,
                                   const long long* in_offsets) {
    __shared__ unsigned int lengths[2];
    __shared__ u64 out_sums[2], in_sums[2];
    const int lane = threadIdx.x & 31;
    const bool counting = alpha >= 0.0;
    if (threadIdx.x < 2) lengths[threadIdx.x] = out_sums[threadIdx.x] = in_sums[threadIdx.x] = 0;
    __syncthreads();
    u64 count = (u64)input_count;
    u64 frontier_out = 0, frontier_in = 0;  // the current frontier's edges, when counting
    if (counting && check_first) {  // the input's, summed in the second slot
        u64 sum = 0, in_sum = 0;
        for (long long t = threadIdx.x; t < input_count; t += blockDim.x) {
            u64 degree, in_degree;
            degrees_of(offsets, in_offsets, input[t], degree, in_degree);
            sum += degree;
            in_sum += in_degree;
        }
        if (sum) atomicAdd(out_sums + 1, sum);
        if (in_sum) atomicAdd(in_sums + 1, in_sum);
        __syncthreads();
        frontier_out = out_sums[1];
        frontier_in = in_sums[1];
        __syncthreads();
        if (threadIdx.x == 0) out_sums[1] = in_sums[1] = 0;
        __syncthreads();
    }
    u64 visited = 0;
    long long consumed = 0;
    bool ruled = false;
    int k = 0;
    for (; k < max_levels && count != 0 && count <= upper_limit; ++k) {
        if (k > 0 || check_first) {
            if (counting) {
                if (beamer_pulls(frontier_out, frontier_in, unexplored - consumed, alpha)) {
                    ruled = true;
                    break;
                }
                consumed += (long long)frontier_in;
            }
            visited += count;
        }
        const V* in = k == 0 ? input : (k & 1) ? queue0 : queue1;
        V* out = (k & 1) ? queue1 : queue0;
        unsigned int* length = lengths + (k & 1);
        const long long items = (long long)count * width;
        u64 sum = 0, in_sum = 0;
        for (long long t = threadIdx.x; t - lane < items; t += blockDim.x) {
            V dst = 0;
            // the block wrote `in` itself: plain loads see it after __syncthreads
            bool take = t < items && claim_item(offsets, columns, in[t / width], t, width,
                                                labels, value + k, predecessor, dst);
            if (take && counting) {
                u64 degree, in_degree;
                degrees_of(offsets, in_offsets, dst, degree, in_degree);
                sum += degree;
                in_sum += in_degree;
            }
            unsigned int takers = __ballot_sync(FULL_MASK, take);
            unsigned int base = 0;
            if (lane == 0 && takers) base = atomicAdd(length, (unsigned int)__popc(takers));
            base = __shfl_sync(FULL_MASK, base, 0);
            if (take) out[base + __popc(takers & ((1u << lane) - 1))] = dst;
        }
        if (counting) {
            if (sum) atomicAdd(out_sums + (k & 1), sum);
            if (in_sum) atomicAdd(in_sums + (k & 1), in_sum);
        }
        __syncthreads();
        count = *length;
        frontier_out = out_sums[k & 1];
        frontier_in = in_sums[k & 1];
        if (threadIdx.x == 0) lengths[(k + 1) & 1] = out_sums[(k + 1) & 1] = in_sums[(k + 1) & 1] = 0;
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        state[k % 3] = count;
        state[3 + k % 3] = frontier_out;
        state[11 + k % 3] = frontier_in;
        state[9] = (u64)k;
        state[14] = visited;
        state[15] = (u64)consumed;
        state[16] = ruled;
    }
}

// Up to max_levels levels of frontier Bellman-Ford by the whole grid while a
// level has at most upper_limit vertices, each of out-degree at most `width`
// (a power of two; its edges go to `width` consecutive threads). A level
// relaxes its frontier's out-edges from `start` (each vertex's distance when
// the level began, aligned with the queue) and queues each improved vertex
// once (queued_at[v] = tag + k + 1); after a barrier it records, for each
// improved vertex, a frontier vertex whose offer is its new distance, and
// the next level's start values. `state` as for claim_levels: sizes at
// [k % 3], levels run at [9], barrier arrivals at [10].
template <typename V, typename W, typename D, typename P>
__global__ void relax_levels(const long long* offsets, const V* columns, const W* weights,
                             const V* input, const D* input_start, long long input_count,
                             V* queue0, V* queue1, D* start0, D* start1, u64* state,
                             D* distance, int* queued_at, int tag, P* predecessor,
                             int max_levels, int width, u64 upper_limit) {
    const long long thread = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long threads = (long long)gridDim.x * blockDim.x;
    const int lane = threadIdx.x & 31;
    u64 passed = 0;
    if (thread == 0) state[0] = (u64)input_count;
    grid_barrier(state + 10, passed);
    for (int k = 0; k < max_levels; ++k) {
        const int slot = k % 3, next = (k + 1) % 3, stale = (k + 2) % 3;
        const u64 count = load_volatile(state + slot);
        if (count == 0 || count > upper_limit) break;
        const V* in = k == 0 ? input : (k & 1) ? queue0 : queue1;
        const D* start = k == 0 ? input_start : (k & 1) ? start0 : start1;
        V* out = (k & 1) ? queue1 : queue0;
        D* out_start = (k & 1) ? start1 : start0;
        if (thread == 0) state[stale] = 0;
        const int queued_tag = tag + k + 1;
        const long long items = (long long)count * width;
        for (long long t = thread; t - lane < items; t += threads) {
            bool take = false;
            V dst = 0;
            long long edge;
            if (t < items && item_edge(offsets, __ldcg(in + t / width), t, width, edge)) {
                dst = columns[edge];
                D offer = (D)(__ldcg(start + t / width) + weight_of(weights, edge));
                take = offer < atomic_min_float(distance + dst, offer)
                       && atomicExch(queued_at + dst, queued_tag) != queued_tag;
            }
            warp_append(take, dst, out, state + next);
        }
        grid_barrier(state + 10, passed);
        if (predecessor) {
            for (long long t = thread; t < items; t += threads) {
                const V src = __ldcg(in + t / width);
                long long edge;
                if (!item_edge(offsets, src, t, width, edge)) continue;
                const V dst = columns[edge];
                if (__ldcg(queued_at + dst) == queued_tag
                    && (D)(__ldcg(start + t / width) + weight_of(weights, edge))
                       == __ldcg(distance + dst))
                    predecessor[dst] = (P)src;
            }
        }
        const long long next_count = (long long)load_volatile(state + next);
        for (long long j = thread; j < next_count; j += threads)
            out_start[j] = __ldcg(distance + __ldcg(out + j));
        if (thread == 0) state[9] = (u64)(k + 1);
        grid_barrier(state + 10, passed);
    }
}

// Append the vertices of bitmap `bits` (`words` words) to `queue`, a warp's
// 32 words at a time with one atomic on `count`; called by every thread of
// the grid (the order of the warps' appends is not defined).
template <typename V>
__device__ __forceinline__ void bits_to_queue(const unsigned int* bits, long long words, V* queue,
                                              u64* count) {
    const int lane = threadIdx.x & 31;
    const long long stride = (long long)gridDim.x * blockDim.x;  // a multiple of 32
    for (long long first = (long long)blockIdx.x * blockDim.x + threadIdx.x - lane;
         first < words; first += stride) {  // the same rounds for every lane of a warp
        const long long word = first + lane;
        unsigned int set = word < words ? bits[word] : 0u;
        const int mine = __popc(set);
        int before = mine;  // inclusive scan over the warp
        for (int d = 1; d < 32; d <<= 1) {
            const int other = __shfl_up_sync(FULL_MASK, before, d);
            if (lane >= d) before += other;
        }
        const int total = __shfl_sync(FULL_MASK, before, 31);
        u64 base = 0;
        if (lane == 31 && total) base = atomicAdd(count, (u64)total);
        base = __shfl_sync(FULL_MASK, base, 31) + (u64)(before - mine);
        for (; set; set &= set - 1) queue[base++] = (V)((word << 5) + __ffs(set) - 1);
    }
}

// One BFS pull level by the whole grid (pull_levels, auto_levels): every
// vertex not in `skip` (pull_skip_bits: labelled, or without in-edges) looks
// over its in-edges (a thread alone while it has at most warp_min, else its
// warp) for a source in the bitmap `active` and takes the first it finds,
// labelled `label`; only its own warp writes its label. Vertex v is lane
// v % 32 of the warp that takes word v / 32, so the warp stores word v / 32
// of `next_bits` (its ballot of claims; every word is written) with no
// atomic, and adds the claims to `skip`. Vertices of more than hub_min
// in-edges are set aside in `hubs` (their count at *hub_count, zeroed) and
// pulled by a block each after a grid barrier (a warp would walk them
// alone). The output's size, out-edges and in-edges are added to counts[0..2],
// and it is written as the mask `out` (n entries, every one written) unless
// `out` is null. Every thread of the grid must call.
template <typename V, typename P>
__device__ __forceinline__ void pull_level(const long long* offsets, const long long* in_offsets,
                                           const V* in_sources, long long n,
                                           const unsigned int* active, unsigned int* next_bits,
                                           unsigned int* skip, bool* out, V* hubs,
                                           u64* hub_count, u64* counts, int* labels, int label,
                                           P* predecessor, long long warp_min, long long hub_min,
                                           u64* arrivals, u64& passed) {
    const long long thread = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long threads = (long long)gridDim.x * blockDim.x;  // a multiple of 32
    const long long words = (n + 31) >> 5;
    const int lane = threadIdx.x & 31;
    const long long rounds = (words * 32 + threads - 1) / threads;
    u64 size = 0, out_sum = 0, in_sum = 0;
    long long v = thread;
    for (long long r = 0; r < rounds; ++r, v += threads) {  // every lane runs every round
        const long long word = v >> 5;
        const unsigned int skipped = word < words ? skip[word] : ~0u;
        long long begin = 0, end = 0;
        if (v < n && !((skipped >> lane) & 1u)) {
            begin = in_offsets[v];
            end = in_offsets[v + 1];
        }
        const bool hub = end - begin > hub_min;
        warp_append(hub, (V)v, hubs, hub_count);
        if (hub) end = begin;
        V parent = 0;
        const bool got = find_parent(in_sources, begin, end, warp_min, active, parent);
        if (got) {
            labels[v] = label;
            if (predecessor) predecessor[v] = (P)parent;
            size += 1;
            out_sum += (u64)(offsets[v + 1] - offsets[v]);
            in_sum += (u64)(end - begin);
        }
        if (out && v < n) out[v] = got;
        const unsigned int claimed = __ballot_sync(FULL_MASK, got);
        if (lane == 0 && word < words) {
            next_bits[word] = claimed;
            if (claimed) skip[word] = skipped | claimed;
        }
    }
    warp_sum_add(size, counts);
    warp_sum_add(out_sum, counts + 1);
    warp_sum_add(in_sum, counts + 2);
    grid_barrier(arrivals, passed);
    // the hubs set aside: a block each, its threads over the in-edges
    const long long hub_total = (long long)load_volatile(hub_count);
    for (long long h = blockIdx.x; h < hub_total; h += gridDim.x) {
        const V hub = hubs[h];
        const long long begin = in_offsets[hub], end = in_offsets[hub + 1];
        for (long long first = begin; first < end; first += blockDim.x) {
            const long long i = first + threadIdx.x;
            V src = 0;
            bool hit = false;
            if (i < end) {
                src = in_sources[i];
                hit = (active[src >> 5] >> (src & 31)) & 1u;
            }
            if (__syncthreads_or(hit)) {
                if (hit && atomicCAS(labels + hub, -1, label) == -1) {
                    if (predecessor) predecessor[hub] = (P)src;
                    atomicOr(next_bits + (hub >> 5), 1u << (hub & 31));
                    atomicOr(skip + (hub >> 5), 1u << (hub & 31));
                    if (out) out[hub] = true;
                    atomicAdd(counts, 1ull);
                    atomicAdd(counts + 1, (u64)(offsets[hub + 1] - offsets[hub]));
                    atomicAdd(counts + 2, (u64)(end - begin));
                }
                break;
            }
        }
    }
}

// ---- Pull levels in one launch (an automatic direction's pull phase) -----
//
// Set bit v of `bits` for each vertex v of list[0 .. count), the whole grid
// taking the list (thread of threads), an atomic a vertex. The list may
// have been written earlier in the same launch, so it is read through L2.
template <typename V>
__device__ __forceinline__ void list_to_bits(const V* list, long long count, unsigned int* bits,
                                             long long thread, long long threads) {
    for (long long i = thread; i < count; i += threads) {
        const V v = __ldcg(list + i);
        atomicOr(bits + (v >> 5), 1u << (v & 31));
    }
}

// pull_levels runs BFS pull levels one after another with a grid-wide
// barrier between them, while Beamer's rule keeps pulling, so that a pull
// phase costs one host round trip instead of one a level. Level 0 pulls
// from `input` (its level decided by the host); before level k > 0 the rule
// takes the last output's size: fewer than n / beta vertices (the same
// double product as frontier.AutoDirection) stops the launch for the host to
// push it (state[17] = 1), as does an empty output or max_levels levels.
//
// Frontiers are bitmaps: bits[k % 2] holds level k's (the host zeroes
// both), and level k writes every word of bits[(k + 1) % 2]: vertex v is
// lane v % 32 of the warp that takes word v / 32, so the warp stores the
// word (its ballot of claims) with no atomic. `skip` (pull_skip_bits: the
// labelled vertices and those without in-edges) passes a vertex by without
// reading its label, and each claim is added to it the same way. An
// unlabelled vertex looks over its in-edges (a thread alone while it has
// at most warp_min, else its warp) and takes the first source in the frontier;
// only its own warp writes its label. Vertices of more than hub_min in-edges
// are set aside and pulled by a block each after a barrier (a warp would
// walk them alone). Level k's output is also written as a mask,
// masks[k & 1] (n entries each, every one written), for the host to
// continue from (an append to one queue would put every warp's atomic on
// one counter). When the rule stops the launch, the last level is small
// (under n / beta vertices) and the host pushes it next: pull_levels_queue,
// launched right after, then writes it as a list too, so that the host
// needs no compaction of the mask.
//
// state (u64, zeroed): [0] levels run, [1] barrier arrivals, [3 + 3 (k % 3)
// + j] level k's output: its size, out-edges and in-edges, [12 + k % 3] its
// hubs set aside, [15] and [16] the vertices and in-edges of the frontiers
// decided here (levels k > 0), [17] 1 when the rule stopped the launch,
// and pull_levels_queue's: [18] the vertices it wrote, [19] 1 when it
// wrote the last level.
template <typename V, typename P>
__global__ void __launch_bounds__(256, 8) pull_levels(const long long* offsets, const long long* in_offsets,
                            const V* in_sources, long long n, const V* input,
                            long long input_count, unsigned int* bits, unsigned int* skip,
                            bool* masks, V* hubs, u64* state, int* labels, int value,
                            P* predecessor, int max_levels, double beta, long long warp_min,
                            long long hub_min) {
    const long long thread = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long threads = (long long)gridDim.x * blockDim.x;  // a multiple of 32
    const long long words = (n + 31) >> 5;
    u64 passed = 0;
    list_to_bits(input, input_count, bits, thread, threads);
    grid_barrier(state + 1, passed);
    u64 visited = 0, consumed = 0;
    int k = 0;
    for (; k < max_levels; ++k) {
        if (k > 0) {
            const u64* last = state + 3 + 3 * ((k - 1) % 3);
            const u64 count = load_volatile(last);
            if (count == 0) break;
            if ((double)count * beta < (double)n) {
                if (thread == 0) state[17] = 1;
                break;
            }
            visited += count;
            consumed += load_volatile(last + 2);
        }
        const unsigned int* active = bits + (k & 1) * words;
        unsigned int* next_bits = bits + ((k + 1) & 1) * words;
        u64* counts = state + 3 + 3 * (k % 3);
        u64* hub_count = state + 12 + k % 3;
        if (thread == 0) {  // level k + 1's, last used at level k - 2
            u64* reused = state + 3 + 3 * ((k + 1) % 3);
            reused[0] = reused[1] = reused[2] = 0;
            state[12 + (k + 1) % 3] = 0;
        }
        pull_level(offsets, in_offsets, in_sources, n, active, next_bits, skip,
                   masks + (k & 1) * n, hubs, hub_count, counts, labels, value + k, predecessor,
                   warp_min, hub_min, state + 1, passed);
        if (thread == 0) state[0] = (u64)(k + 1);
        grid_barrier(state + 1, passed);
    }
    if (thread == 0) {
        state[15] = visited;
        state[16] = consumed;
    }
}

// The last index h < count with sorted[h] <= value (sorted[0] <= value), by
// a search that splits the range in 32 a round, a lane each: log32(count)
// rounds of dependent loads instead of log2(count). Every lane of the warp
// must call, with the same arguments.
__device__ __forceinline__ u64 last_at_most(const u64* sorted, u64 count, u64 value) {
    const int lane = threadIdx.x & 31;
    u64 low = 0, high = count;
    while (high - low > 1) {
        const u64 step = (high - low + 31) / 32;
        const u64 at = low + (u64)lane * step;
        const unsigned int fits =
            __ballot_sync(FULL_MASK, at < high && __ldcg(sorted + at) <= value);
        const u64 found = low + (u64)(31 - __clz(fits)) * step;  // lane 0 always fits
        high = min(high, found + step);
        low = found;
    }
    return low;
}

// One BFS push level by the whole grid (auto_levels): a warp walks each
// vertex of the list `in` (count vertices) over its out-edges, 32 at a
// time, and claims each destination not set in `visited` (a bitmap, read
// from L2, then set by an atomicOr whose answer decides the claim: a level
// whose edges mostly lead to a few hubs then makes one atomic per hub, not
// one per edge on its label), labelling it `label`. The claims' out-edges
// and in-edges are added to counts[1..2]. A vertex of more than hub_push
// out-edges is set aside in `hubs` with the first of its chunks of
// blockDim.x edges (`hub_starts`; *hub_count, zeroed, packs their number
// << 32 | the chunks); after a grid barrier every block takes chunks in
// turn, so that a hub's edges spread over the grid. The output goes to
// `out` with its length at counts[0]: appended a warp at a time, or, for
// a `dense` level (whose appends would all wait on that one counter),
// set in the bitmap `scratch` (zeroed here) and gathered from it after a
// grid barrier. Every thread of the grid must call.
template <typename V, typename P>
__device__ __forceinline__ void push_level(const long long* offsets, const long long* in_offsets,
                                           const V* columns, const V* in, long long count,
                                           long long n, bool dense, V* out, u64* counts,
                                           unsigned int* visited, unsigned int* scratch,
                                           V* hubs, u64* hub_starts, u64* hub_count,
                                           int* labels, int label, P* predecessor,
                                           long long hub_push, u64* arrivals, u64& passed) {
    const long long thread = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long threads = (long long)gridDim.x * blockDim.x;
    const long long words = (n + 31) >> 5;
    const int lane = threadIdx.x & 31;
    if (dense) {
        for (long long w = thread; w < words; w += threads) scratch[w] = 0u;
        grid_barrier(arrivals, passed);
    }
    u64 out_sum = 0, in_sum = 0;
    const auto claim = [&](bool exists, V src, long long edge) {
        V dst = 0;
        bool take = false;
        if (exists) {
            dst = columns[edge];
            const unsigned int bit = 1u << (dst & 31);
            unsigned int* word = visited + (dst >> 5);
            take = !(__ldcg(word) & bit) && !(atomicOr(word, bit) & bit);
            if (take) {
                labels[dst] = label;
                if (predecessor) predecessor[dst] = (P)src;
                if (dense) atomicOr(scratch + (dst >> 5), bit);
                u64 degree, in_degree;
                degrees_of(offsets, in_offsets, dst, degree, in_degree);
                out_sum += degree;
                in_sum += in_degree;
            }
        }
        if (!dense) warp_append(take, dst, out, counts);
    };
    for (long long w = thread >> 5; w < count; w += threads >> 5) {
        const V src = __ldcg(in + w);
        const long long begin = offsets[src], end = offsets[src + 1];
        if (end - begin > hub_push) {  // set aside, with its chunks
            if (lane == 0) {
                const u64 chunks = (u64)((end - begin + blockDim.x - 1) / blockDim.x);
                const u64 before = atomicAdd(hub_count, (1ull << 32) | chunks);
                hubs[before >> 32] = src;
                hub_starts[before >> 32] = before & 0xffffffffull;
            }
            continue;
        }
        for (long long first = begin; first < end; first += 32)
            claim(first + lane < end, src, first + lane);
    }
    grid_barrier(arrivals, passed);
    const u64 set_aside = load_volatile(hub_count);
    const u64 hub_total = set_aside >> 32, chunk_total = set_aside & 0xffffffffull;
    for (u64 chunk = blockIdx.x; chunk < chunk_total; chunk += gridDim.x) {
        const u64 low = last_at_most(hub_starts, hub_total, chunk);  // the chunk's hub
        const V src = __ldcg(hubs + low);
        const long long edge = offsets[src]
            + (long long)(chunk - __ldcg(hub_starts + low)) * blockDim.x + threadIdx.x;
        claim(edge < offsets[src + 1], src, edge);
    }
    warp_sum_add(out_sum, counts + 1);
    warp_sum_add(in_sum, counts + 2);
    if (dense) {
        grid_barrier(arrivals, passed);
        bits_to_queue(scratch, words, out, counts);
    }
}


// ---- A whole automatic-direction traversal in one launch ------------------
//
// auto_levels runs BFS levels of Beamer's rule one after another, each
// decided on the device from the counts of its frontier: push levels while
// the rule pushes, then the pull phase, then push levels for good, with a
// grid-wide barrier between levels, until a level finds nothing or
// max_levels (at most 64) levels have run. So a traversal on a graph of
// large degrees (a Kronecker graph, where the levels kernels stop at hubs
// and large levels) costs one launch and one read. Level k claims with
// label value + k. `phase` is the rule's state at the start: 0 pushes until
// the rule pulls (alpha, `unexplored`: the in-edges not visited before the
// input), 1 pulls until a frontier has fewer than n / beta vertices, 2
// pushes for good; the input's level is decided here too.
//
// A push level's frontier is a list (push_level: its output goes to the
// queue it does not read from, queues[0] or queues[1], n entries each), a
// pull level's a bitmap (pull_level: bits[side], n / 32 words each).
// Between them the frontier changes form: a list becomes a bitmap, a
// bitmap a list in queue0 (bits_to_queue). Both directions claim through
// `skip`, the bitmap of the visited vertices and those without in-edges
// (`lonely`), made from the labels when the launch starts: the same bitmap
// as fused.pull_skip_bits, made here because that launch (and its buffer)
// cost the host about 23 us a call on an H200, 2026-11-28, where the
// host's work before this launch is what the GPU waits for.
//
// Registers: with 8 blocks of 256 per multiprocessor (pull_levels'
// bounds, 32 registers) the pull level spilled to local memory (3.9 GB of
// local loads in a call at Kronecker 26); with 6 blocks (40 registers, a
// few spills outside the pull's loop) the kernel's first version took 1.00x
// the time of 8 and 0.95x that of 5 (48 registers, none spilled) at
// Kronecker 26, 0.92x and 0.98x at 24 (one H200, a DOBFS call from the hub,
// benchmarks/ab.py).
//
// state (u64, zeroed): [0] levels run, [1] barrier arrivals, [2] bit k set
// when level k pulled, [3 + 3 (k % 3) + j] the counts of level k's frontier
// (size, out-edges, in-edges; level 0's is the input), [12 + k % 3] the
// hubs level k set aside (a push's: their number << 32 | their chunks),
// [15] and [16] the vertices and in-edges of the frontiers decided here,
// [17] the phase at the end, [18] the queue that holds the last frontier
// as a list (0 or 1), [19] the length bits_to_queue wrote: 20 words
// (auto_levels.STATE_WORDS).
template <typename V, typename P>
__global__ void __launch_bounds__(256, 6) auto_levels(
        const long long* offsets, const V* columns, const long long* in_offsets,
        const V* in_sources, long long n, const V* input, long long input_count, V* queues,
        unsigned int* bits, unsigned int* skip, const unsigned int* lonely, V* hubs,
        u64* hub_starts, u64* state, int* labels, int value, P* predecessor, int max_levels,
        int phase, double alpha, double beta, long long unexplored, long long warp_min,
        long long hub_min, long long hub_push, long long dense_push) {
    const long long thread = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long threads = (long long)gridDim.x * blockDim.x;  // a multiple of 32
    const long long words = (n + 31) >> 5;
    const int lane = threadIdx.x & 31;
    // What every thread of a block shares, kept out of registers (the pull
    // level needs them all): the rule's phase, the frontier's form, and
    // what the rule has counted.
    __shared__ const V* list;  // the frontier, as a list (null: as the bitmap bits[side])
    __shared__ int rule_phase, side, list_queue, stop;
    __shared__ u64 visited;
    __shared__ long long consumed;
    u64 passed = 0;
    {  // the input's counts
        u64 out_sum = 0, in_sum = 0;
        for (long long i = thread; i < input_count; i += threads) {
            u64 degree, in_degree;
            degrees_of(offsets, in_offsets, input[i], degree, in_degree);
            out_sum += degree;
            in_sum += in_degree;
        }
        warp_sum_add(out_sum, state + 4);
        warp_sum_add(in_sum, state + 5);
        if (thread == 0) state[3] = (u64)input_count;
    }
    // the bitmap of the visited vertices and those without in-edges (a
    // push claims through it, a pull skips its vertices), by a warp vote
    // a word: flags_to_bits' pack_word here raised the kernel's spills from
    // 64/168 to 88/232 bytes (stores/loads; nvcc -Xptxas -v, sm_90)
    for (long long v = thread; v < words * 32; v += threads) {
        const unsigned int labelled = __ballot_sync(FULL_MASK, v < n && labels[v] != -1);
        if (lane == 0) skip[v >> 5] = labelled | lonely[v >> 5];
    }
    if (threadIdx.x == 0) {
        list = input;
        list_queue = -1;
        side = 0;
        rule_phase = phase;
        visited = 0;
        consumed = 0;
    }
    grid_barrier(state + 1, passed);
    int k = 0;
    for (; k < max_levels; ++k) {
        if (threadIdx.x == 0) {  // the rule, as frontier.AutoDirection decides
            const u64* counts_in = state + 3 + 3 * (k % 3);
            const u64 count = load_volatile(counts_in);
            const u64 in_edges = load_volatile(counts_in + 2);
            stop = count == 0;
            if (!stop && rule_phase == 0 && beamer_pulls(load_volatile(counts_in + 1), in_edges,
                                                         unexplored - consumed, alpha))
                rule_phase = 1;
            else if (!stop && rule_phase == 1 && (double)count * beta < (double)n)
                rule_phase = 2;
            visited += count;
            consumed += (long long)in_edges;
        }
        __syncthreads();
        if (stop) break;
        u64* counts = state + 3 + 3 * ((k + 1) % 3);
        u64* hub_count = state + 12 + k % 3;
        if (thread == 0) state[12 + (k + 1) % 3] = 0;  // level k + 1's hubs, last used at k - 2
        if (rule_phase == 1) {
            if (list) {  // the list becomes the bitmap bits[0]
                for (long long w = thread; w < words; w += threads) bits[w] = 0u;
                grid_barrier(state + 1, passed);
                list_to_bits(list, (long long)load_volatile(state + 3 + 3 * (k % 3)), bits,
                             thread, threads);
                grid_barrier(state + 1, passed);
                if (threadIdx.x == 0) {
                    list = nullptr;
                    side = 0;
                }
                __syncthreads();
            }
            pull_level(offsets, in_offsets, in_sources, n, bits + side * words,
                       bits + (1 - side) * words, skip, (bool*)nullptr, hubs, hub_count, counts,
                       labels, value + k, predecessor, warp_min, hub_min, state + 1, passed);
            if (threadIdx.x == 0) side = 1 - side;
            if (thread == 0) state[2] |= 1ull << k;
        } else {
            if (!list) {  // the bitmap becomes a list in queue0
                bits_to_queue(bits + side * words, words, queues, state + 19);
                if (threadIdx.x == 0) {
                    list = queues;
                    list_queue = 0;
                }
                grid_barrier(state + 1, passed);
            }
            const u64* counts_in = state + 3 + 3 * (k % 3);
            push_level(offsets, in_offsets, columns, list, (long long)load_volatile(counts_in), n,
                       load_volatile(counts_in + 1) >= (u64)dense_push,
                       queues + (list_queue == 0 ? n : 0), counts, skip, bits, hubs, hub_starts,
                       hub_count, labels, value + k, predecessor, hub_push, state + 1, passed);
            __syncthreads();
            if (threadIdx.x == 0) {
                list = queues + (list_queue == 0 ? n : 0);
                list_queue = list_queue == 0 ? 1 : 0;
            }
        }
        if (thread == 0) {  // level k + 2's counts, last used at level k - 1
            u64* reused = state + 3 + 3 * ((k + 2) % 3);
            reused[0] = reused[1] = reused[2] = 0;
            state[0] = (u64)(k + 1);
        }
        grid_barrier(state + 1, passed);
    }
    if (!list && load_volatile(state + 3 + 3 * (k % 3)) > 0) {  // the last frontier as a list
        bits_to_queue(bits + side * words, words, queues, state + 19);
        if (threadIdx.x == 0) list_queue = 0;
    }
    if (thread == 0) {
        state[15] = visited;
        state[16] = (u64)consumed;
        state[17] = (u64)rule_phase;
        state[18] = (u64)(list_queue < 0 ? 0 : list_queue);
    }
}

// After pull_levels: where its rule stopped the launch and the last level
// fits `queue` (room for `queue_room` vertices), that level's vertices, from
// its bitmap, in `queue` (state[18] their count, state[19] = 1). A kernel of
// its own, so that pull_levels keeps its registers for its levels.
template <typename V>
__global__ void pull_levels_queue(const unsigned int* bits, long long n, u64* state, V* queue,
                                  long long queue_room) {
    const u64 levels = state[0];
    if (levels == 0 || !state[17] || state[3 + 3 * ((levels - 1) % 3)] > (u64)queue_room) return;
    const long long words = (n + 31) >> 5;
    if (blockIdx.x == 0 && threadIdx.x == 0) state[19] = 1;
    bits_to_queue(bits + (levels & 1) * words, words, queue, state + 18);
}

// ---------------------------------------------------------------------------
// Joint levels (frontier/multi/joint_levels.py): a claim's levels run by
// every part of a multi-device run with no host read between a level's
// step and its boundary. A part's claims are routed as they are won: a
// vertex it owns goes to its next queue, another part's to that part's
// outbox (as the owner's slot, with the predecessor as a caller id), which
// the owner merges in joint_merge. A claim is decided on the part's bitmap
// of labelled vertices, `seen`. Every length stays on the device, in a
// part's `counts`: [0] and [1] the two queues' lengths (level k reads queue
// k % 2 and fills the other), [2] the chunks listed, then the outboxes'
// lengths, [3 + parity * parts + p] for part p (level k fills parity k % 2),
// then an automatic direction's tally of a level's frontier: its out-edges
// at [3 + 2 * parts] and in-edges at [4 + 2 * parts] (joint_tally).

// Claim `dst` at `label`: the part's bitmap of labelled vertices, `seen`
// (L2-resident where the labels are not), decides; the winner writes the label.
__device__ __forceinline__ bool claim_unseen(unsigned int* seen, int* labels, int label,
                                             long long dst) {
    if (!test_and_set(seen, dst)) return false;
    labels[dst] = label;
    return true;
}

// Where a part's won claims go: the predecessor, written here; this part's
// next queue for a vertex it owns (every vertex, without `owner`), else its
// owner's outbox as the owner's slot (on_owner[dst], or dst itself), with
// the predecessor. outbox_starts[p]: where part p's outbox starts in
// `outbox` and `outbox_preds` (of this level's parity).
template <typename V, typename P>
struct Routes {
    P* predecessor;
    const signed char* owner;
    int rank, parts;
    const V* on_owner;
    V* next;
    u64* next_count;
    V* outbox;
    P* outbox_preds;
    const long long* outbox_starts;
    u64* outbox_counts;
};

// Route the lanes' won claims of `dst` from `from` (a caller id); every
// lane calls it.
template <typename V, typename P>
__device__ __forceinline__ void route(bool take, V dst, P from, const Routes<V, P>& r) {
    if (take && r.predecessor) r.predecessor[dst] = from;
    const int part = !take ? -1 : r.owner ? (int)r.owner[dst] : r.rank;
    warp_append(part == r.rank, dst, r.next, r.next_count);
    for (int p = 0; p < r.parts; ++p) {
        if (p == r.rank || !__any_sync(FULL_MASK, part == p)) continue;
        warp_append_pair(part == p, r.on_owner && part == p ? r.on_owner[dst] : dst, from,
                         r.outbox + r.outbox_starts[p],
                         r.outbox_preds ? r.outbox_preds + r.outbox_starts[p] : (P*)0,
                         r.outbox_counts + p);
    }
}

// A warp's won claims wait in shared memory (STAGED entries of the warp's
// own) and are routed 32 at a time: in a level that claims millions, an
// append each round would meet at one counter.
#define STAGED 64
template <typename V, typename P>
struct Stage {
    V* dsts;
    P* froms;
    int staged;
};

// The calling warp's stage, empty (blocks of 256 threads: 8 warps).
template <typename V, typename P>
__device__ __forceinline__ Stage<V, P> warp_stage() {
    __shared__ V dsts[8 * STAGED];
    __shared__ P froms[8 * STAGED];
    const int warp = threadIdx.x >> 5;
    return Stage<V, P>{dsts + warp * STAGED, froms + warp * STAGED, 0};
}

// Stage the lanes' won claims of `dst` from `from`; every lane calls it.
template <typename V, typename P>
__device__ __forceinline__ void stage(bool take, V dst, P from, Stage<V, P>& s,
                                      const Routes<V, P>& r) {
    const int lane = threadIdx.x & 31;
    const unsigned int takers = __ballot_sync(FULL_MASK, take);
    if (take) {
        const int at = s.staged + __popc(takers & ((1u << lane) - 1));
        s.dsts[at] = dst;
        s.froms[at] = from;
    }
    s.staged += __popc(takers);
    if (s.staged >= 32) {
        __syncwarp();
        route(true, s.dsts[lane], s.froms[lane], r);
        __syncwarp();
        if (lane < s.staged - 32) {
            s.dsts[lane] = s.dsts[32 + lane];
            s.froms[lane] = s.froms[32 + lane];
        }
        __syncwarp();
        s.staged -= 32;
    }
}

// Route what is left in a warp's stage (at the end of a kernel).
template <typename V, typename P>
__device__ __forceinline__ void flush(const Stage<V, P>& s, const Routes<V, P>& r) {
    const int lane = threadIdx.x & 31;
    __syncwarp();
    const bool take = lane < s.staged;
    route(take, take ? s.dsts[lane] : (V)0, take ? s.froms[lane] : (P)0, r);
}

// A warp's place in a grid-stride loop of warps over the *count items at
// `count`: its lane, its warp's index, the grid's warps and the count.
struct WarpLoop {
    int lane;
    long long warp, warps, count;
};

__device__ __forceinline__ WarpLoop warp_loop(const u64* count) {
    return WarpLoop{(int)(threadIdx.x & 31),
                    ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5,
                    ((long long)gridDim.x * blockDim.x) >> 5, (long long)*count};
}

// One level from queue `input` (its length at *input_count): each warp
// takes 32 vertices of at most hub_min out-edges and walks their edges
// together, 32 a round (a warp-wide scan of their degrees tells each lane
// its vertex). A vertex of more is cut into chunks of `chunk` edges, listed
// (its id, the chunk's first edge) in chunk_sources and chunk_firsts
// (their number at *chunk_count) for joint_claim_chunks.
template <typename V, typename P>
__global__ void joint_claim(const long long* offsets, const V* columns, const V* input,
                            const u64* input_count, unsigned int* seen, int* labels, int label,
                            const P* slot_ids, const Routes<V, P> routes, long long hub_min,
                            long long chunk, V* chunk_sources, long long* chunk_firsts,
                            u64* chunk_count) {
    const WarpLoop loop = warp_loop(input_count);
    const int lane = loop.lane;
    Stage<V, P> waiting = warp_stage<V, P>();
    for (long long base = loop.warp * 32; base < loop.count; base += loop.warps * 32) {
        const long long i = base + lane;
        V src = 0;
        long long first = 0, degree = 0;
        if (i < loop.count) {
            src = input[i];
            first = offsets[src];
            degree = offsets[src + 1] - first;
        }
        // A vertex of more edges is cut into chunks, each hub's listed by the
        // whole warp (its lane alone wrote them, thousands for a Kronecker
        // hub, while the warp waited).
        const bool hub = degree > hub_min;
        long long chunks = 0, at = 0;
        if (hub) {
            chunks = (degree + chunk - 1) / chunk;
            at = (long long)atomicAdd(chunk_count, (u64)chunks);
            degree = 0;
        }
        for (unsigned int hubs = __ballot_sync(FULL_MASK, hub); hubs; hubs &= hubs - 1) {
            const int h = __ffs(hubs) - 1;
            const long long its_chunks = __shfl_sync(FULL_MASK, chunks, h);
            const long long its_at = __shfl_sync(FULL_MASK, at, h);
            const long long its_first = __shfl_sync(FULL_MASK, first, h);
            const V its_src = __shfl_sync(FULL_MASK, src, h);
            for (long long c = lane; c < its_chunks; c += 32) {
                chunk_sources[its_at + c] = its_src;
                chunk_firsts[its_at + c] = its_first + c * chunk;
            }
        }
        long long inclusive = degree;
        for (int offset = 1; offset < 32; offset <<= 1) {
            long long other = __shfl_up_sync(FULL_MASK, inclusive, offset);
            if (lane >= offset) inclusive += other;
        }
        const long long total = __shfl_sync(FULL_MASK, inclusive, 31);
        const long long exclusive = inclusive - degree;
        for (long long e = lane; e - lane < total; e += 32) {
            int holder = 0;  // the last lane whose edges start at or before e: e's vertex
            for (int step = 16; step; step >>= 1) {
                long long start = __shfl_sync(FULL_MASK, exclusive, holder + step);
                if (start <= e) holder += step;
            }
            const V from = __shfl_sync(FULL_MASK, src, holder);
            const long long edge = __shfl_sync(FULL_MASK, first, holder) + e
                                   - __shfl_sync(FULL_MASK, exclusive, holder);
            V dst = 0;
            bool take = false;
            if (e < total) {
                dst = columns[edge];
                take = claim_unseen(seen, labels, label, dst);
            }
            stage(take, dst, take ? (P)(slot_ids ? slot_ids[from] : from) : (P)0, waiting,
                  routes);
        }
    }
    flush(waiting, routes);
}

// The chunks joint_claim listed, a warp per chunk.
template <typename V, typename P>
__global__ void joint_claim_chunks(const long long* offsets, const V* columns,
                                   const V* chunk_sources, const long long* chunk_firsts,
                                   const u64* chunk_count, long long chunk, unsigned int* seen,
                                   int* labels, int label, const P* slot_ids,
                                   const Routes<V, P> routes) {
    const WarpLoop loop = warp_loop(chunk_count);
    const int lane = loop.lane;
    Stage<V, P> waiting = warp_stage<V, P>();
    for (long long c = loop.warp; c < loop.count; c += loop.warps) {
        const V src = chunk_sources[c];
        const P from = (P)(slot_ids ? slot_ids[src] : src);
        const long long begin = chunk_firsts[c];
        const long long end = min(offsets[src + 1], begin + chunk);
        for (long long edge = begin + lane; edge - lane < end; edge += 32) {
            V dst = 0;
            bool take = false;
            if (edge < end) {
                dst = columns[edge];
                take = claim_unseen(seen, labels, label, dst);
            }
            stage(take, dst, from, waiting, routes);
        }
    }
    flush(waiting, routes);
}

// A level's offers from the peers, after their joint_claim: inboxes[q],
// inbox_preds[q] and inbox_counts[q] are the addresses of peer q's outbox
// for this part, its predecessors (0: none) and its length. An unlabelled
// slot is claimed at `label` and joins the next queue. Block 0's first
// thread also zeroes what the next level fills: this level's input length
// (`parity`), the chunks and the other parity's outbox lengths.
template <typename V, typename P>
__global__ void joint_merge(const u64* inboxes, const u64* inbox_preds, const u64* inbox_counts,
                            int peers, unsigned int* seen, int* labels, int label,
                            P* predecessor, V* next,
                            u64* counts, int parity, int parts) {
    const long long thread = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long threads = (long long)gridDim.x * blockDim.x;  // a multiple of 32
    const int lane = threadIdx.x & 31;
    if (thread == 0) {
        counts[parity] = 0;
        counts[2] = 0;
        for (int p = 0; p < parts; ++p) counts[3 + (1 - parity) * parts + p] = 0;
    }
    // every slot here is this part's: no owner, no outbox
    const Routes<V, P> routes{predecessor, nullptr, 0, 0, nullptr, next, counts + (1 - parity),
                              nullptr, nullptr, nullptr, nullptr};
    Stage<V, P> waiting = warp_stage<V, P>();
    for (int q = 0; q < peers; ++q) {
        const V* slots = (const V*)inboxes[q];
        const P* preds = (const P*)inbox_preds[q];
        const long long count = (long long)*(const u64*)inbox_counts[q];
        for (long long i = thread; i - lane < count; i += threads) {
            V slot = 0;
            bool take = false;
            if (i < count) {
                slot = slots[i];
                take = claim_unseen(seen, labels, label, slot);
            }
            stage(take, slot, take && preds ? preds[i] : (P)0, waiting, routes);
        }
    }
    flush(waiting, routes);
}

// A pull level of the joint levels of an automatic direction (shared slot
// numbers: a slot is its caller id on every part). Each of `owned` (the
// part's owned vertices that have in-edges) not labelled yet looks over its
// in-edges for a vertex of the level's
// frontier, whose bit every part set in this part's bitmap `front`
// (joint_tally), and the first it finds claims it at `label`: the vertex
// joins this part's next queue with the in-neighbour as its predecessor. No
// other part claims an owned vertex in a pull level, so nothing is routed.
template <typename V, typename P>
__global__ void joint_pull(const long long* in_offsets, const V* in_sources, const V* owned,
                           long long owned_count, const unsigned int* front, unsigned int* seen,
                           int* labels, int label, P* predecessor, V* next, u64* next_count) {
    const Routes<V, P> routes{predecessor, nullptr, 0, 0, nullptr, next, next_count,
                              nullptr, nullptr, nullptr, nullptr};
    Stage<V, P> waiting = warp_stage<V, P>();
    const long long threads = (long long)gridDim.x * blockDim.x;  // a multiple of 32
    const int lane = threadIdx.x & 31;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i - lane < owned_count;
         i += threads) {
        bool take = false;
        V v = 0, parent = 0;
        if (i < owned_count) {
            v = owned[i];
            if (!(seen[v >> 5] & (1u << (v & 31)))) {
                const long long end = in_offsets[v + 1];
                for (long long e = in_offsets[v]; e < end; ++e) {
                    const V u = in_sources[e];
                    if (front[u >> 5] & (1u << (u & 31))) {
                        parent = u;
                        take = true;
                        break;
                    }
                }
                if (take) {
                    labels[v] = label;
                    atomicOr(seen + (v >> 5), 1u << (v & 31));
                }
            }
        }
        stage(take, v, (P)parent, waiting, routes);
    }
    flush(waiting, routes);
}

// The frontier of a joint level, queue `queue` of *count vertices: its
// out-edges and in-edges added to sums[0] and sums[1] (zeroed before), and
// where `parts` > 0 each vertex's bit set in every part's bitmap of the
// level (fronts: their addresses), which the parts' pulls read.
template <typename V>
__global__ void joint_tally(const long long* offsets, const long long* in_offsets,
                            const V* queue, const u64* count, u64* sums, const u64* fronts,
                            int parts) {
    const long long n = (long long)*count;
    u64 out = 0, in = 0;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const V v = queue[i];
        out += (u64)(offsets[v + 1] - offsets[v]);
        in += (u64)(in_offsets[v + 1] - in_offsets[v]);
        for (int q = 0; q < parts; ++q) {
            atomicOr((unsigned int*)fronts[q] + (v >> 5), 1u << (v & 31));
        }
    }
    for (int offset = 16; offset; offset >>= 1) {
        out += __shfl_down_sync(FULL_MASK, out, offset);
        in += __shfl_down_sync(FULL_MASK, in, offset);
    }
    if ((threadIdx.x & 31) == 0 && (out || in)) {
        atomicAdd(sums, out);
        atomicAdd(sums + 1, in);
    }
}
