#include <stdatomic.h>
#include <stddef.h>
#include <malloc.h>
#include "AllocationCounter.h"

// glibc's own entry points, which the wrappers below forward to.
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_ulong allocations;

static void count(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

void *malloc(size_t n) { count(); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { count(); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { count(); return __libc_realloc(p, n); }
void *aligned_alloc(size_t alignment, size_t n) { count(); return __libc_memalign(alignment, n); }
int posix_memalign(void **out, size_t alignment, size_t n) {
    count();
    void *p = __libc_memalign(alignment, n);
    if (!p) return 12; /* ENOMEM */
    *out = p;
    return 0;
}

unsigned long strata_allocation_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }

void strata_heap_trimming(int on) { mallopt(M_TRIM_THRESHOLD, on ? 128 * 1024 : 1 << 30); }
