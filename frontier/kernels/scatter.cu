// Exact atomic minimum (maximum) for the general path's scatter_min and the
// multi-device merge on a GPU. (CuPy's minimum.at on float64 does not return
// the exact double, which breaks the "which update won" test that follows it.)

template <bool Larger, typename T>
__device__ __forceinline__ bool better(T value, T current) {
    return Larger ? value > current : value < current;
}

template <bool Larger>
__device__ __forceinline__ void atomic_extreme(int* address, int value) {
    if (Larger) atomicMax(address, value); else atomicMin(address, value);
}

template <bool Larger>
__device__ __forceinline__ void atomic_extreme(long long* address, long long value) {
    if (Larger) atomicMax(address, value); else atomicMin(address, value);
}

template <bool Larger>
__device__ __forceinline__ void atomic_extreme(double* address, double value) {
    unsigned long long* bits = (unsigned long long*)address;
    unsigned long long old = *bits;
    while (better<Larger>(value, __longlong_as_double((long long)old))) {
        unsigned long long seen = atomicCAS(bits, old, (unsigned long long)__double_as_longlong(value));
        if (seen == old) break;
        old = seen;
    }
}

template <bool Larger>
__device__ __forceinline__ void atomic_extreme(float* address, float value) {
    unsigned int* bits = (unsigned int*)address;
    unsigned int old = *bits;
    while (better<Larger>(value, __int_as_float((int)old))) {
        unsigned int seen = atomicCAS(bits, old, (unsigned int)__float_as_int(value));
        if (seen == old) break;
        old = seen;
    }
}

// values[ids[i]] = min(values[ids[i]], candidates[i]) (max if Larger) for every i.
template <typename T, bool Larger>
__global__ void scatter_extreme(T* values, const long long* ids, const T* candidates, long long count) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        atomic_extreme<Larger>(values + ids[i], candidates[i]);
    }
}
