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
#if defined(_MSC_VER)
#define PATHCRAFT_ZEROED static __inline
#else
#define PATHCRAFT_ZEROED static inline
#endif

/* The system's part, per platform: a zeroed mapping of n bytes (NULL on failure), its
 * release, zero pages again over the same place (0 when it could not), the bytes of it
 * in memory, and the small-pages advice. */
#if defined(_WIN32)
#include <windows.h>

PATHCRAFT_ZEROED void *pathcraft_map(size_t n) {
    return VirtualAlloc(NULL, n, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

PATHCRAFT_ZEROED void pathcraft_unmap(void *p, size_t n) {
    (void)n;
    VirtualFree(p, 0, MEM_RELEASE);
}

PATHCRAFT_ZEROED int pathcraft_remap(void *p, size_t n) {
    /* Decommitted then committed again, the pages read as zero and hold no memory. */
    return VirtualFree(p, n, MEM_DECOMMIT) && VirtualAlloc(p, n, MEM_COMMIT, PAGE_READWRITE) != NULL;
}

PATHCRAFT_ZEROED long long pathcraft_mapped_resident(const void *p, size_t n) {
    (void)p;
    return (long long)n; /* the system does not say cheaply: all of it */
}

PATHCRAFT_ZEROED void pathcraft_small_pages(void *p, size_t n) {
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

PATHCRAFT_ZEROED void *pathcraft_map(size_t n) {
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, PATHCRAFT_MAP_FLAGS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

PATHCRAFT_ZEROED void pathcraft_unmap(void *p, size_t n) {
    munmap(p, n);
}

PATHCRAFT_ZEROED int pathcraft_remap(void *p, size_t n) {
    return mmap(p, n, PROT_READ | PROT_WRITE, PATHCRAFT_MAP_FLAGS | MAP_FIXED, -1, 0) == p;
}

PATHCRAFT_ZEROED long long pathcraft_mapped_resident(const void *p, size_t n) {
    long page = sysconf(_SC_PAGESIZE);
    size_t pages, i;
    long long count = 0;
    unsigned char *vec;
    if (page <= 0) {
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

PATHCRAFT_ZEROED void pathcraft_small_pages(void *p, size_t n) {
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

/* The same on every platform: small blocks from calloc, large ones mapped. */
PATHCRAFT_ZEROED void *pathcraft_zalloc(size_t n) {
    if (n < PATHCRAFT_LAZY_BYTES) {
        return calloc(n ? n : 1, 1);
    }
    return pathcraft_map(n);
}

PATHCRAFT_ZEROED void pathcraft_zfree(void *p, size_t n) {
    if (p == NULL) {
        return;
    }
    if (n < PATHCRAFT_LAZY_BYTES) {
        free(p);
    } else {
        pathcraft_unmap(p, n);
    }
}

PATHCRAFT_ZEROED void pathcraft_zreset(void *p, size_t n) {
    if (n < PATHCRAFT_LAZY_BYTES || !pathcraft_remap(p, n)) {
        memset(p, 0, n);
    }
}

PATHCRAFT_ZEROED long long pathcraft_resident(const void *p, size_t n) {
    if (p == NULL) {
        return 0;
    }
    return n < PATHCRAFT_LAZY_BYTES ? (long long)n : pathcraft_mapped_resident(p, n);
}

#endif
