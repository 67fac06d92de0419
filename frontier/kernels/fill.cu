// Fill an array with one value, 16 bytes a store; or set a few entries.
//
// `pattern` is the value repeated over 16 bytes (an element of 1, 2, 4, 8 or
// 16 bytes); `data` starts on a 16-byte boundary, so byte i of the array is
// byte i % 16 of the pattern. The last `tail` bytes (< 16) follow the words.

__global__ void fill_pattern(ulonglong2* data, long long words, unsigned long long low,
                             unsigned long long high, int tail) {
    const ulonglong2 pattern = make_ulonglong2(low, high);
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += stride)
        data[i] = pattern;
    if (blockIdx.x == 0 && threadIdx.x < tail) {
        reinterpret_cast<unsigned char*>(data + words)[threadIdx.x] =
            reinterpret_cast<const unsigned char*>(&pattern)[threadIdx.x];
    }
}

// data[slots[i]] = value for i < count (data[i] where `slots` is null): an
// element of `size` bytes (1, 2, 4 or 8), `value` its bytes in the low ones.
// One launch where CuPy's indexed assignment makes several (frontier.put).
template <typename S>
__global__ void put_value(unsigned char* data, const S* slots, long long count, int size,
                          unsigned long long value) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
        const long long at = slots == nullptr ? i : (long long)slots[i];
        switch (size) {
            case 1: data[at] = (unsigned char)value; break;
            case 2: reinterpret_cast<unsigned short*>(data)[at] = (unsigned short)value; break;
            case 4: reinterpret_cast<unsigned int*>(data)[at] = (unsigned int)value; break;
            default: reinterpret_cast<unsigned long long*>(data)[at] = value; break;
        }
    }
}
