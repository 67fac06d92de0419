// Stream compaction: the positions of the true entries of a bool array (or
// of the set bits of a NumPy packbits bitmap, big-endian within each byte),
// in ascending order. Two passes over the flags, 32 bits at a time:
// compact_count counts each tile's flags, an inclusive scan of the counts
// gives every tile its first output slot, and compact_write writes the
// positions, a warp scan and a block-wide prefix per round keeping them in
// order. The flags must start on a 4-byte boundary.

#define COMPACT_THREADS 256
#define COMPACT_ROUNDS 8
#define COMPACT_WORDS (COMPACT_THREADS * COMPACT_ROUNDS)  // 32-bit words a tile takes
#define COMPACT_WARPS (COMPACT_THREADS / 32)

// Flags per 32-bit word: 4 bools, or 32 bits of a bitmap.
template <bool Packed> struct Width { static const int flags = Packed ? 32 : 4; };

// The flags of word w as bits in position order (bit j: position
// w * Width::flags + j), those at or past `length` cleared.
template <bool Packed>
__device__ __forceinline__ unsigned flag_bits(const unsigned char* bytes, long long nbytes,
                                              long long length, long long w) {
    long long at = 4 * w;
    unsigned word;
    if (at + 3 < nbytes) {
        word = *(const unsigned*)(bytes + at);
    } else {
        word = 0;
        for (int k = 0; k < 4 && at + k < nbytes; ++k) word |= (unsigned)bytes[at + k] << (8 * k);
    }
    unsigned bits;
    if (Packed) {
        bits = __byte_perm(__brev(word), 0, 0x0123);  // bit 7 of each byte first
    } else {
        bits = 0;
        for (int k = 0; k < 4; ++k) bits |= ((word >> (8 * k)) & 0xffu) ? 1u << k : 0u;
    }
    long long valid = length - w * Width<Packed>::flags;
    if (valid < 32) bits &= valid <= 0 ? 0u : (1u << valid) - 1u;
    return bits;
}

// counts[b] = number of flags set in tile b.
template <bool Packed>
__global__ void compact_count(const unsigned char* bytes, long long nbytes, long long length,
                              long long* counts) {
    __shared__ int warp_sums[COMPACT_WARPS];
    long long words = (nbytes + 3) / 4, start = (long long)blockIdx.x * COMPACT_WORDS;
    int count = 0;
    for (int k = 0; k < COMPACT_ROUNDS; ++k) {
        long long w = start + k * COMPACT_THREADS + threadIdx.x;
        if (w < words) count += __popc(flag_bits<Packed>(bytes, nbytes, length, w));
    }
    for (int offset = 16; offset > 0; offset >>= 1) {
        count += __shfl_down_sync(0xffffffffu, count, offset);
    }
    if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = count;
    __syncthreads();
    if (threadIdx.x == 0) {
        long long total = 0;
        for (int i = 0; i < COMPACT_WARPS; ++i) total += warp_sums[i];
        counts[blockIdx.x] = total;
    }
}

// out[j] = position of the j-th set flag; ends = inclusive scan of counts.
template <bool Packed, typename P>
__global__ void compact_write(const unsigned char* bytes, long long nbytes, long long length,
                              const long long* ends, P* out) {
    __shared__ int warp_sums[COMPACT_WARPS];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    long long words = (nbytes + 3) / 4, start = (long long)blockIdx.x * COMPACT_WORDS;
    long long base = blockIdx.x == 0 ? 0 : ends[blockIdx.x - 1];
    for (int k = 0; k < COMPACT_ROUNDS; ++k) {
        long long w = start + k * COMPACT_THREADS + threadIdx.x;
        unsigned bits = w < words ? flag_bits<Packed>(bytes, nbytes, length, w) : 0u;
        int count = __popc(bits), before = count;  // inclusive warp scan of the counts
        for (int offset = 1; offset < 32; offset <<= 1) {
            int other = __shfl_up_sync(0xffffffffu, before, offset);
            if (lane >= offset) before += other;
        }
        if (lane == 31) warp_sums[warp] = before;
        before -= count;
        __syncthreads();
        int round_total = 0;
        for (int i = 0; i < COMPACT_WARPS; ++i) {
            int sum = warp_sums[i];
            before += i < warp ? sum : 0;
            round_total += sum;
        }
        long long slot = base + before, first = w * Width<Packed>::flags;
        while (bits) {
            out[slot++] = (P)(first + __ffs(bits) - 1);
            bits &= bits - 1u;
        }
        base += round_total;
        __syncthreads();  // every warp has read warp_sums before the next round writes it
    }
}
