#ifndef STRATA_ALLOCATION_COUNTER_H
#define STRATA_ALLOCATION_COUNTER_H
/// Heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc) made
/// by the whole process since it started. Linking this target into an executable
/// interposes those functions; benchmarks only.
unsigned long strata_allocation_count(void);
/// Whether glibc hands freed memory at the top of the heap back to the kernel
/// (on: its default threshold, 128 KiB; off: it keeps it, and reusing it faults
/// no page). Either way glibc no longer moves the threshold by itself.
void strata_heap_trimming(int on);
#endif
