/* Count trailing zeros of a 64-bit word, on every compiler the wheels are built with.
 *
 * pathcraft_ctz64(x) is the index of the lowest set bit of x; x must not be 0 (the
 * result is then undefined, as for the compiler intrinsics it wraps).
 */
#ifndef PATHCRAFT_BITSCAN_H
#define PATHCRAFT_BITSCAN_H

#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static __inline int pathcraft_ctz64(uint64_t x) {
    unsigned long index;
#if defined(_M_X64) || defined(_M_ARM64) || defined(_M_AMD64)
    _BitScanForward64(&index, (unsigned __int64)x);
    return (int)index;
#else
    /* 32-bit MSVC has no 64-bit scan: scan the low word, then the high one. */
    if (_BitScanForward(&index, (unsigned long)(x & 0xFFFFFFFFu))) {
        return (int)index;
    }
    _BitScanForward(&index, (unsigned long)(x >> 32));
    return (int)index + 32;
#endif
}
#elif defined(__GNUC__) || defined(__clang__)
static inline int pathcraft_ctz64(uint64_t x) {
    return __builtin_ctzll((unsigned long long)x);
}
#else
/* Any other C99 compiler: isolate the lowest bit and find it by binary search. */
static inline int pathcraft_ctz64(uint64_t x) {
    int n = 0;
    if ((x & 0xFFFFFFFFu) == 0) { n += 32; x >>= 32; }
    if ((x & 0xFFFFu) == 0) { n += 16; x >>= 16; }
    if ((x & 0xFFu) == 0) { n += 8; x >>= 8; }
    if ((x & 0xFu) == 0) { n += 4; x >>= 4; }
    if ((x & 0x3u) == 0) { n += 2; x >>= 2; }
    if ((x & 0x1u) == 0) { n += 1; }
    return n;
}
#endif

#endif /* PATHCRAFT_BITSCAN_H */
