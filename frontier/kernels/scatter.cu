// Exact atomic minimum for the general path's scatter_min on a GPU.
// (CuPy's minimum.at on float64 does not return the exact double, which
// breaks the "which update won" test that follows it.)

template <typename T>
__device__ __forceinline__ void atomic_min(T* address, T value) {
    atomicMin(address, value);
}

template <>
__device__ __forceinline__ void atomic_min<double>(double* address, double value) {
    unsigned long long* bits = (unsigned long long*)address;
    unsigned long long old = *bits;
    while (value < __longlong_as_double((long long)old)) {
        unsigned long long seen = atomicCAS(bits, old, (unsigned long long)__double_as_longlong(value));
        if (seen == old) break;
        old = seen;
    }
}

template <>
__device__ __forceinline__ void atomic_min<float>(float* address, float value) {
    unsigned int* bits = (unsigned int*)address;
    unsigned int old = *bits;
    while (value < __int_as_float((int)old)) {
        unsigned int seen = atomicCAS(bits, old, (unsigned int)__float_as_int(value));
        if (seen == old) break;
        old = seen;
    }
}

// values[ids[i]] = min(values[ids[i]], candidates[i]) for every i.
template <typename T>
__global__ void scatter_min(T* values, const long long* ids, const T* candidates, long long count) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        atomic_min(values + ids[i], candidates[i]);
    }
}
