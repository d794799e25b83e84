/* Zeroed memory that costs what is touched: the per-node arrays of a search workspace
 * (machine.pyx's BaseWorkspace).
 *
 * A workspace holds one slot per node of the map (16 bytes a cell of a grid), but a
 * search touches only the nodes it reaches. Arrays of PATHCRAFT_LAZY_BYTES or more are
 * mapped straight from the system (mmap, VirtualAlloc): their pages read as zero and
 * take no memory until first written, and nothing loops over them, so a search on a
 * 1024 x 1024 grid that reaches a few cells costs a few pages, not 20 MB. (calloc
 * would do the same only while the C library serves the block by mmap: glibc's
 * threshold moves with the blocks freed, and a block from its heap is cleared in full.)
 * Smaller arrays come from calloc.
 *
 *   pathcraft_zalloc(n)       n zero bytes, or NULL
 *   pathcraft_zfree(p, n)     give back what pathcraft_zalloc(n) returned (NULL: nothing)
 *   pathcraft_zreset(p, n)    zero it again, giving the touched pages back where the
 *                             system can (a fresh mapping at the same place)
 *   pathcraft_resident(p, n)  bytes of it in memory now (mincore); n where the system
 *                             does not say (Windows), -1 on failure
 *   pathcraft_small_pages(p, n)  back it with small pages only (MADV_NOHUGEPAGE where
 *                             transparent huge pages exist): a write then takes 4 kB,
 *                             not a 2 MB huge page, where the system makes them always
 */
#ifndef PATHCRAFT_ZEROED_H
#define PATHCRAFT_ZEROED_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define PATHCRAFT_LAZY_BYTES ((size_t)256 * 1024)

#if defined(_WIN32)
#include <windows.h>

static __inline void *pathcraft_zalloc(size_t n) {
    if (n < PATHCRAFT_LAZY_BYTES) {
        return calloc(n ? n : 1, 1);
    }
    return VirtualAlloc(NULL, n, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

static __inline void pathcraft_zfree(void *p, size_t n) {
    if (p == NULL) {
        return;
    }
    if (n < PATHCRAFT_LAZY_BYTES) {
        free(p);
    } else {
        VirtualFree(p, 0, MEM_RELEASE);
    }
}

static __inline void pathcraft_zreset(void *p, size_t n) {
    /* Decommitted then committed again, the pages read as zero and hold no memory. */
    if (n >= PATHCRAFT_LAZY_BYTES && VirtualFree(p, n, MEM_DECOMMIT)
        && VirtualAlloc(p, n, MEM_COMMIT, PAGE_READWRITE) != NULL) {
        return;
    }
    memset(p, 0, n);
}

static __inline long long pathcraft_resident(const void *p, size_t n) {
    (void)p;
    return (long long)n;
}

static __inline void pathcraft_small_pages(void *p, size_t n) {
    (void)p;
    (void)n;
}

#else
#include <sys/mman.h>
#include <unistd.h>

#if !defined(MAP_ANONYMOUS) && defined(MAP_ANON)
#define MAP_ANONYMOUS MAP_ANON
#endif
#ifndef MAP_NORESERVE
#define MAP_NORESERVE 0
#endif
#define PATHCRAFT_MAP_FLAGS (MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)

static inline void *pathcraft_zalloc(size_t n) {
    void *p;
    if (n < PATHCRAFT_LAZY_BYTES) {
        return calloc(n ? n : 1, 1);
    }
    p = mmap(NULL, n, PROT_READ | PROT_WRITE, PATHCRAFT_MAP_FLAGS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static inline void pathcraft_zfree(void *p, size_t n) {
    if (p == NULL) {
        return;
    }
    if (n < PATHCRAFT_LAZY_BYTES) {
        free(p);
    } else {
        munmap(p, n);
    }
}

static inline void pathcraft_zreset(void *p, size_t n) {
    if (n >= PATHCRAFT_LAZY_BYTES
        && mmap(p, n, PROT_READ | PROT_WRITE, PATHCRAFT_MAP_FLAGS | MAP_FIXED, -1, 0) == p) {
        return;
    }
    memset(p, 0, n);
}

static inline long long pathcraft_resident(const void *p, size_t n) {
    long page = sysconf(_SC_PAGESIZE);
    size_t pages, i;
    long long count = 0;
    unsigned char *vec;
    if (p == NULL) {
        return 0;
    }
    if (n < PATHCRAFT_LAZY_BYTES || page <= 0) {
        return (long long)n;
    }
    pages = (n + (size_t)page - 1) / (size_t)page;
    vec = (unsigned char *)malloc(pages);
    if (vec == NULL) {
        return -1;
    }
    if (mincore((void *)p, n, (void *)vec) != 0) {
        free(vec);
        return -1;
    }
    for (i = 0; i < pages; i++) {
        count += vec[i] & 1;
    }
    free(vec);
    return count * (long long)page;
}

static inline void pathcraft_small_pages(void *p, size_t n) {
#ifdef MADV_NOHUGEPAGE
    if (p != NULL && n >= PATHCRAFT_LAZY_BYTES) {
        madvise(p, n, MADV_NOHUGEPAGE);
    }
#else
    (void)p;
    (void)n;
#endif
}
#endif

#endif
