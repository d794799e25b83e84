/* A monotonic clock in seconds, read in C (no Python call, no float object), for the
 * time a step machine spends in its steps (machine.pyx).
 *
 * pathcraft_now() is the monotonic clock Python's time.perf_counter() reads on the same
 * system: QueryPerformanceCounter on Windows, clock_gettime(CLOCK_MONOTONIC) elsewhere.
 */
#ifndef PATHCRAFT_CLOCK_H
#define PATHCRAFT_CLOCK_H

#if defined(_WIN32)
#include <windows.h>
static __inline double pathcraft_now(void) {
    static LARGE_INTEGER frequency;
    LARGE_INTEGER count;
    if (frequency.QuadPart == 0) {
        QueryPerformanceFrequency(&frequency);
    }
    QueryPerformanceCounter(&count);
    return (double)count.QuadPart / (double)frequency.QuadPart;
}
#else
#include <time.h>
static inline double pathcraft_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#endif

#endif
