// The output boundary's split and collection on a GPU
// (frontier/multi/output_exchange.py, frontier/kernels/boundary.py): a step's
// output frontier grouped by owner part in two passes instead of a sort, and
// the next frontier gathered from the slots a boundary marked, each once,
// clearing the marks as it goes. Appends are warp-aggregated: one atomic per
// warp and bucket.

// counts[p] += the ids owned by part p (a block's histogram in shared memory,
// then one atomic per block and part).
template <typename S, typename O>
__global__ void count_owners(const S* ids, long long n, const O* owner, int parts,
                             unsigned long long* counts) {
    extern __shared__ unsigned int block_counts[];
    for (int p = threadIdx.x; p < parts; p += blockDim.x) block_counts[p] = 0;
    __syncthreads();
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicAdd(block_counts + owner[ids[i]], 1u);
    }
    __syncthreads();
    for (int p = threadIdx.x; p < parts; p += blockDim.x) {
        if (block_counts[p]) atomicAdd(counts + p, (unsigned long long)block_counts[p]);
    }
}

// Every id to its owner's bucket: local[start(p) + k] = id and there[...] =
// the id's slot on its owner (on_owner[id], or the id itself where on_owner
// is null: shared slot numbers), start(p) the sum of counts below p. Ids this
// part owns (p == rank) are also marked. Order within a bucket is arbitrary.
template <typename S, typename O>
__global__ void place_by_owner(const S* ids, long long n, const O* owner, int parts, int rank,
                               const S* on_owner, const unsigned long long* counts,
                               unsigned long long* cursors, S* local, S* there, bool* marked) {
    long long stride = (long long)gridDim.x * blockDim.x;
    int lane = threadIdx.x & 31;
    for (long long first = (long long)blockIdx.x * blockDim.x; first < n; first += stride) {
        long long i = first + threadIdx.x;
        unsigned active = __ballot_sync(0xffffffffu, i < n);
        if (i >= n) continue;
        S id = ids[i];
        int part = owner[id];
        unsigned same = __match_any_sync(active, part);
        int leader = __ffs(same) - 1;
        unsigned long long base = 0;
        if (lane == leader) {  // the bucket's start, then this group's place in it
            for (int p = 0; p < part; ++p) base += counts[p];
            base += atomicAdd(cursors + part, (unsigned long long)__popc(same));
        }
        base = __shfl_sync(same, base, leader);
        long long at = (long long)(base + __popc(same & ((1u << lane) - 1u)));
        local[at] = id;
        there[at] = on_owner ? on_owner[id] : id;
        if (part == rank) marked[id] = true;
    }
}

// out[...] = each slot of slots[0..n) whose mark is set, once: the mark is
// cleared by an atomic AND on the 4-byte word holding it, and only the
// thread that cleared it appends the slot. Negative slots are skipped.
// (marked's allocation must cover whole words: CuPy's pool rounds to 512 bytes.)
template <typename S>
__global__ void collect_marked(const S* slots, long long n, bool* marked, S* out,
                               unsigned long long* size) {
    long long stride = (long long)gridDim.x * blockDim.x;
    int lane = threadIdx.x & 31;
    for (long long first = (long long)blockIdx.x * blockDim.x; first < n; first += stride) {
        long long i = first + threadIdx.x;
        bool take = false;
        S slot = -1;
        if (i < n) {
            slot = slots[i];
            if (slot >= 0 && marked[slot]) {
                size_t address = (size_t)(marked + slot);
                unsigned shift = 8u * (unsigned)(address & 3u);
                unsigned old = atomicAnd((unsigned*)(address & ~(size_t)3), ~(0xffu << shift));
                take = ((old >> shift) & 0xffu) != 0;
            }
        }
        unsigned taking = __ballot_sync(0xffffffffu, take);
        if (!taking) continue;
        int leader = __ffs(taking) - 1;
        unsigned long long base = 0;
        if (lane == leader) base = atomicAdd(size, (unsigned long long)__popc(taking));
        base = __shfl_sync(0xffffffffu, base, leader);
        if (take) out[base + __popc(taking & ((1u << lane) - 1u))] = slot;
    }
}

// The bitmap packbits makes of a mask over owned[0..count) (sorted slots)
// that is true where owned[k] is one of slots[0..n): bit k is bit 7 - k % 8
// of byte k / 8, set by an atomic OR on the 4-byte word holding that byte
// (bits: whole words, zeroed). Each slot is found by binary search; a slot
// not in owned sets nothing.
template <typename S>
__global__ void owned_bits(const S* slots, long long n, const S* owned, long long count,
                           unsigned int* bits) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        S slot = slots[i];
        long long low = 0, high = count;
        while (low < high) {
            long long middle = (low + high) >> 1;
            if (owned[middle] < slot) low = middle + 1; else high = middle;
        }
        if (low == count || owned[low] != slot) continue;
        unsigned shift = 8u * (unsigned)((low >> 3) & 3) + 7u - (unsigned)(low & 7);
        atomicOr(bits + (low >> 5), 1u << shift);
    }
}
