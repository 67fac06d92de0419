// Segmented reductions: out[s] = the min, max, or, and or xor of
// values[ends[s - 1]:ends[s]] (ends inclusive, segment 0 starts at 0), for
// every segment that is not empty; empty segments are left alone (the caller
// has filled `out` with the identity).
//
// One warp a segment, the grid's warps striding over the segments. Lane k
// folds values start + k, start + k + 32, ... (coalesced reads), then a
// shuffle reduction over the lanes that read a value gives lane 0 the result.
// A segment shorter than 32 leaves lanes without a value, and no op needs a
// neutral element: a lane combines a partner's value only if that lane read
// one. Every op is exact, so the order of combining does not matter; min and
// max return NaN for a segment that has one, as NumPy's do.
//
// T: value type (int, long long, float, double; the bitwise ops only int and
// long long: the host views unsigned values as the signed type of their size).

#define FULL_MASK 0xffffffffu

struct Minimum {
    template <typename T>
    __device__ __forceinline__ static T apply(T a, T b) { return (a < b || a != a) ? a : b; }
};

struct Maximum {
    template <typename T>
    __device__ __forceinline__ static T apply(T a, T b) { return (a > b || a != a) ? a : b; }
};

struct BitwiseOr {
    template <typename T>
    __device__ __forceinline__ static T apply(T a, T b) { return a | b; }
};

struct BitwiseAnd {
    template <typename T>
    __device__ __forceinline__ static T apply(T a, T b) { return a & b; }
};

struct BitwiseXor {
    template <typename T>
    __device__ __forceinline__ static T apply(T a, T b) { return a ^ b; }
};

// Every thread of the grid calls this (blockDim.x a multiple of 32, so that
// the 32 lanes of a warp share their segment and loop together).
template <typename Op, typename T>
__device__ __forceinline__ void reduce_segments(const T* __restrict__ values,
                                                const long long* __restrict__ ends,
                                                long long count, T* __restrict__ out) {
    const int lane = threadIdx.x & 31;
    const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
    for (long long s = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; s < count;
         s += warps) {
        const long long start = s == 0 ? 0 : ends[s - 1];
        const long long length = ends[s] - start;
        if (length <= 0) continue;  // the whole warp: its lanes share s
        T acc = lane < length ? values[start + lane] : T(0);
        // several loads in flight per lane on a long segment
#pragma unroll 4
        for (long long i = lane + 32; i < length; i += 32) acc = Op::apply(acc, values[start + i]);
        // lanes 0 .. read - 1 hold a value
        const int read = length < 32 ? (int)length : 32;
        for (int offset = 16; offset > 0; offset >>= 1) {
            T other = __shfl_down_sync(FULL_MASK, acc, offset);
            if (lane + offset < read) acc = Op::apply(acc, other);
        }
        if (lane == 0) out[s] = acc;
    }
}

// The kernel of every reduction: Op is Minimum, Maximum, BitwiseOr,
// BitwiseAnd or BitwiseXor.
template <typename Op, typename T>
__global__ void segment_reduce(const T* values, const long long* ends, long long count, T* out) {
    reduce_segments<Op>(values, ends, count, out);
}
