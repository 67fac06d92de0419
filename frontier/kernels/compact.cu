// Stream compaction: the positions of the true entries of a bool array (or
// of the set bits of a NumPy packbits bitmap, big-endian within each byte),
// in ascending order. Two passes over the flags: compact_count counts each
// tile's flags, an inclusive scan of the counts gives every tile its first
// output slot, and compact_write writes the positions, a warp ballot and a
// block-wide prefix per round keeping them in order. Given a zeroed
// `ticket`, the count kernel's last block to finish also does the scan, in
// place (no separate launch).

#define COMPACT_THREADS 256
#define COMPACT_ROUNDS 16
#define COMPACT_TILE (COMPACT_THREADS * COMPACT_ROUNDS)
#define COMPACT_WARPS (COMPACT_THREADS / 32)

template <bool Packed>
__device__ __forceinline__ int flag_at(const unsigned char* flags, long long i) {
    if (Packed) return (flags[i >> 3] >> (7 - (int)(i & 7))) & 1;
    return flags[i] != 0;
}

// counts[blockIdx.x] = the sum of every thread's `count` (one call per block).
__device__ __forceinline__ void store_block_sum(int count, long long* counts) {
    __shared__ int warp_sums[COMPACT_WARPS];
    for (int offset = 16; offset > 0; offset >>= 1) {
        count += __shfl_down_sync(0xffffffffu, count, offset);
    }
    if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = count;
    __syncthreads();
    if (threadIdx.x == 0) {
        long long total = 0;
        for (int w = 0; w < COMPACT_WARPS; ++w) total += warp_sums[w];
        counts[blockIdx.x] = total;
    }
}

// values[0..count) = their inclusive scan, in place, by one block: each
// thread sums SCAN_ITEMS consecutive values, a block-wide scan of those sums
// places them, and a carry runs from one chunk to the next. Loads bypass L1
// (other blocks wrote the values).
#define SCAN_ITEMS 16
__device__ void block_scan_in_place(long long* values, long long count) {
    __shared__ long long warp_totals[COMPACT_WARPS];
    __shared__ long long carry;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (threadIdx.x == 0) carry = 0;
    __syncthreads();
    for (long long base = 0; base < count; base += (long long)COMPACT_THREADS * SCAN_ITEMS) {
        long long first = base + (long long)threadIdx.x * SCAN_ITEMS;
        long long running[SCAN_ITEMS];
        long long sum = 0;
        for (int k = 0; k < SCAN_ITEMS; ++k) {
            if (first + k < count) sum += __ldcg(values + first + k);
            running[k] = sum;
        }
        long long inclusive = sum;
        for (int step = 1; step < 32; step <<= 1) {
            long long other = __shfl_up_sync(0xffffffffu, inclusive, step);
            if (lane >= step) inclusive += other;
        }
        if (lane == 31) warp_totals[warp] = inclusive;
        __syncthreads();
        long long before = carry + inclusive - sum, chunk = 0;
        for (int w = 0; w < COMPACT_WARPS; ++w) {
            before += w < warp ? warp_totals[w] : 0;
            chunk += warp_totals[w];
        }
        for (int k = 0; k < SCAN_ITEMS; ++k) {
            if (first + k < count) values[first + k] = before + running[k];
        }
        __syncthreads();  // every thread has read carry and warp_totals
        if (threadIdx.x == 0) carry += chunk;
        __syncthreads();
    }
}

// With a ticket (a zeroed counter): the last of the grid's blocks to store
// its count turns counts into their inclusive scan. Each block's count is
// fenced before it takes its ticket, so the last block sees them all.
__device__ __forceinline__ void scan_if_last(long long* counts, unsigned long long* ticket) {
    if (!ticket) return;
    __shared__ bool last;
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(ticket, 1ull) == gridDim.x - 1;
    }
    __syncthreads();
    if (last) block_scan_in_place(counts, gridDim.x);
}

// counts[b] = number of flags set in tile b (COMPACT_TILE entries).
template <bool Packed>
__global__ void compact_count(const unsigned char* flags, long long n, long long* counts,
                              unsigned long long* ticket) {
    long long start = (long long)blockIdx.x * COMPACT_TILE;
    int count = 0;
    for (int k = 0; k < COMPACT_ROUNDS; ++k) {
        long long i = start + k * COMPACT_THREADS + threadIdx.x;
        if (i < n) count += flag_at<Packed>(flags, i);
    }
    store_block_sum(count, counts);
    scan_if_last(counts, ticket);
}

// out[j] = position of the j-th set flag (with `values`: the value there);
// ends = inclusive scan of counts.
template <bool Packed, typename P>
__global__ void compact_write(const unsigned char* flags, long long n, const long long* ends,
                              P* out, const P* values) {
    __shared__ int warp_sums[COMPACT_WARPS];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    long long base = blockIdx.x == 0 ? 0 : ends[blockIdx.x - 1];
    long long start = (long long)blockIdx.x * COMPACT_TILE;
    for (int k = 0; k < COMPACT_ROUNDS; ++k) {
        long long i = start + k * COMPACT_THREADS + threadIdx.x;
        int flag = i < n ? flag_at<Packed>(flags, i) : 0;
        unsigned ballot = __ballot_sync(0xffffffffu, flag);
        if (lane == 0) warp_sums[warp] = __popc(ballot);
        __syncthreads();
        int before = __popc(ballot & ((1u << lane) - 1u)), round_total = 0;
        for (int w = 0; w < COMPACT_WARPS; ++w) {
            int sum = warp_sums[w];
            before += w < warp ? sum : 0;
            round_total += sum;
        }
        if (flag) out[base + before] = values ? values[i] : (P)i;
        base += round_total;
        __syncthreads();  // every warp has read warp_sums before the next round writes it
    }
}

// The same two passes, 16 flags per thread: from one 16-byte load of a bool
// array whose start is 16-byte aligned, or from two bytes of a bitmap. A
// tile is COMPACT_THREADS threads of 16 flags, one block-wide scan (no
// rounds) orders the positions, and the write stages them in shared memory
// so that the stores are coalesced.
#define COMPACT_VECTOR 16

// Bit j set where flag first + j is set, for the 16 flags from `first` (a
// multiple of 16).
template <bool Packed>
__device__ __forceinline__ unsigned flags16(const unsigned char* flags, long long n,
                                            long long first) {
    unsigned bits = 0;
    if (Packed) {
        long long byte = first >> 3;
        bits = __brev((unsigned)flags[byte]) >> 24;  // bit 7 of a byte is its first flag
        if (first + 8 < n) bits |= (__brev((unsigned)flags[byte + 1]) >> 24) << 8;
        long long valid = n - first;
        if (valid < COMPACT_VECTOR) bits &= (1u << valid) - 1u;
    } else if (first + COMPACT_VECTOR <= n) {
        uint4 v = *(const uint4*)(flags + first);
        unsigned words[4] = {v.x, v.y, v.z, v.w};
        for (int q = 0; q < 4; ++q) {
            unsigned ones = __vcmpne4(words[q], 0u) & 0x01010101u;  // 1 per true byte
            unsigned packed = (ones | (ones >> 7) | (ones >> 14) | (ones >> 21)) & 0xfu;
            bits |= packed << (4 * q);
        }
    } else {
        for (int k = 0; k < COMPACT_VECTOR && first + k < n; ++k) {
            bits |= (flags[first + k] != 0 ? 1u : 0u) << k;
        }
    }
    return bits;
}

template <bool Packed>
__global__ void compact_count_vector(const unsigned char* flags, long long n, long long* counts,
                                     unsigned long long* ticket) {
    long long first = (long long)blockIdx.x * COMPACT_TILE + (long long)COMPACT_VECTOR * threadIdx.x;
    int count = first < n ? __popc(flags16<Packed>(flags, n, first)) : 0;
    store_block_sum(count, counts);
    scan_if_last(counts, ticket);
}

// A grid of one block needs no `ends` (tile 0 starts at 0) and stores its
// count in `single_total`; a larger grid leaves that alone. With `values`,
// out holds the values at the set flags' positions instead.
template <bool Packed, typename P>
__global__ void compact_write_vector(const unsigned char* flags, long long n,
                                     const long long* ends, P* out, long long* single_total,
                                     const P* values) {
    // The tile's positions are gathered in shared memory (as offsets in the
    // tile), then written out in order by all threads: coalesced stores.
    __shared__ int warp_sums[COMPACT_WARPS];
    __shared__ unsigned short staged[COMPACT_TILE];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    long long tile_start = (long long)blockIdx.x * COMPACT_TILE;
    int offset = COMPACT_VECTOR * threadIdx.x;
    unsigned bits = tile_start + offset < n ? flags16<Packed>(flags, n, tile_start + offset) : 0u;
    int count = __popc(bits), before = count;  // inclusive warp scan of the counts
    for (int step = 1; step < 32; step <<= 1) {
        int other = __shfl_up_sync(0xffffffffu, before, step);
        if (lane >= step) before += other;
    }
    if (lane == 31) warp_sums[warp] = before;
    before -= count;
    __syncthreads();
    int total = 0;
    for (int w = 0; w < COMPACT_WARPS; ++w) {
        int sum = warp_sums[w];
        before += w < warp ? sum : 0;
        total += sum;
    }
    while (bits) {
        staged[before++] = (unsigned short)(offset + __ffs(bits) - 1);
        bits &= bits - 1u;
    }
    if (gridDim.x == 1 && threadIdx.x == 0) *single_total = total;
    __syncthreads();
    P* tile_out = out + (blockIdx.x == 0 ? 0 : ends[blockIdx.x - 1]);
    for (int j = threadIdx.x; j < total; j += COMPACT_THREADS) {
        long long position = tile_start + staged[j];
        tile_out[j] = values ? values[position] : (P)position;
    }
}
