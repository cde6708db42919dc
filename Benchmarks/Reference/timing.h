/* What the C references of Docs/Benchmarks.md share: the monotonic clock and the
 * median of a run's samples. */
#ifndef STRATA_REFERENCE_TIMING_H
#define STRATA_REFERENCE_TIMING_H
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sorts `xs` in place. */
static double median(double *xs, int n) {
    qsort(xs, n, sizeof *xs, compare);
    return n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}
#endif
