// Exact atomic minimum (maximum) for the general path's scatter_min, count_down's
// decrements, and the multi-device merge of offered values on a GPU (no device
// read). (CuPy's minimum.at on float64 does not return the exact double, which
// breaks the "which update won" test that follows it.)

template <bool Larger, typename T>
__device__ __forceinline__ bool better(T value, T current) {
    return Larger ? value > current : value < current;
}

// *address = min(*address, value) (max if Larger), atomically; true if
// value replaced the value it found there.
template <bool Larger>
__device__ __forceinline__ bool atomic_extreme(int* address, int value) {
    int old = Larger ? atomicMax(address, value) : atomicMin(address, value);
    return better<Larger>(value, old);
}

template <bool Larger>
__device__ __forceinline__ bool atomic_extreme(long long* address, long long value) {
    long long old = Larger ? atomicMax(address, value) : atomicMin(address, value);
    return better<Larger>(value, old);
}

// Unsigned: the multi-device merge of "earliest" data, signed ids viewed as
// unsigned so that -1 (all bits set) loses to every other value.
template <bool Larger>
__device__ __forceinline__ bool atomic_extreme(unsigned int* address, unsigned int value) {
    unsigned int old = Larger ? atomicMax(address, value) : atomicMin(address, value);
    return better<Larger>(value, old);
}

template <bool Larger>
__device__ __forceinline__ bool atomic_extreme(unsigned long long* address, unsigned long long value) {
    unsigned long long old = Larger ? atomicMax(address, value) : atomicMin(address, value);
    return better<Larger>(value, old);
}

template <bool Larger>
__device__ __forceinline__ bool atomic_extreme(double* address, double value) {
    unsigned long long* bits = (unsigned long long*)address;
    unsigned long long old = *bits;
    while (better<Larger>(value, __longlong_as_double((long long)old))) {
        unsigned long long seen = atomicCAS(bits, old, (unsigned long long)__double_as_longlong(value));
        if (seen == old) return true;
        old = seen;
    }
    return false;
}

template <bool Larger>
__device__ __forceinline__ bool atomic_extreme(float* address, float value) {
    unsigned int* bits = (unsigned int*)address;
    unsigned int old = *bits;
    while (better<Larger>(value, __int_as_float((int)old))) {
        unsigned int seen = atomicCAS(bits, old, (unsigned int)__float_as_int(value));
        if (seen == old) return true;
        old = seen;
    }
    return false;
}

// values[ids[i]] = min(values[ids[i]], candidates[i]) (max if Larger) for every i.
template <typename T, bool Larger>
__global__ void scatter_extreme(T* values, const long long* ids, const T* candidates, long long count) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        atomic_extreme<Larger>(values + ids[i], candidates[i]);
    }
}

// counts[ids[i]] -= 1 for every i (where[i], if where is not null); reached[i]:
// that decrement found the count at to + 1. Of the decrements of one count
// that starts above `to` and ends at or below it, exactly one finds it there.
__device__ __forceinline__ int atomic_decrement(int* address) { return atomicSub(address, 1); }

__device__ __forceinline__ long long atomic_decrement(long long* address) {
    return (long long)atomicAdd((unsigned long long*)address, ~0ull);  // adds -1
}

template <typename T>
__global__ void count_down(T* counts, const long long* ids, const bool* where, long long count,
                           T to, bool* reached) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        bool hit = false;
        if (!where || where[i]) hit = atomic_decrement(counts + ids[i]) == to + 1;
        reached[i] = hit;
    }
}

// The multi-device merge of offers for "min" ("max" if Larger) data: for every
// offer i, values[slots[i]] = min(values[slots[i]], offers[i]); a negative slot
// is skipped. beat[i]: offer i replaced the value it found (so the last offer
// to write a slot's final value has beat set); changed[slot]: some offer did.
template <typename T, typename S, bool Larger>
__global__ void merge_offers(T* values, const S* slots, const T* offers, long long count,
                             bool* beat, bool* changed) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        S slot = slots[i];
        bool won = slot >= 0 && atomic_extreme<Larger>(values + slot, offers[i]);
        beat[i] = won;
        if (won) changed[slot] = true;
    }
}

// One winning offer per changed slot, for the followers: ticket[slot] = i for
// some offer i that beat and holds the slot's final value (any one of them).
template <typename T, typename S>
__global__ void merge_tickets(const T* values, const S* slots, const T* offers, const bool* beat,
                              long long count, int* ticket) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        if (beat[i] && values[slots[i]] == offers[i]) ticket[slots[i]] = (int)i;
    }
}

// A follower takes the winning offer's value: follower[slot] = followed[i]
// for the offer i holding the slot's ticket.
template <typename T, typename S, typename F>
__global__ void merge_follow(const T* values, const S* slots, const T* offers, const bool* beat,
                             const int* ticket, long long count, F* follower, const F* followed) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        if (beat[i] && values[slots[i]] == offers[i] && ticket[slots[i]] == (int)i) {
            follower[slots[i]] = followed[i];
        }
    }
}

// changed[slots[i]] = true where amounts[i] != 0 (the "sum" merge's changes); a
// negative slot is skipped.
template <typename T, typename S>
__global__ void mark_nonzero(const S* slots, const T* amounts, long long count, bool* changed) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        if (slots[i] >= 0 && amounts[i] != (T)0) changed[slots[i]] = true;
    }
}
