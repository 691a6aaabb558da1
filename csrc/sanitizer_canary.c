/*
 * Deliberate bugs, never linked into the product: `make test-sanitize` compiles this
 * file with the same flags as the sanitized modules and checks that each bug is
 * reported and stops the program (csrc/check_sanitizers.py).  A sanitizer build that
 * lets these pass would make "zero reports" on the test suite meaningless.
 *
 *   sanitizer_canary heap     reads one int past a malloc'd array (ASan)
 *   sanitizer_canary overflow INT_MAX + 1 in signed arithmetic (UBSan)
 *   sanitizer_canary clean    the same code paths without the bug: must exit 0
 *
 * Built with -DCANARY_SHARED -shared it exports canary_run(mode) instead of main, so
 * the check can trigger the bugs from inside the stock Python interpreter too.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int canary_run(const char *mode);

int canary_run(const char *mode)
{
    volatile int n = 8, step = 1, base = INT_MAX;
    int extra = strcmp(mode, "heap") == 0;  /* one element too far when set */
    int *a = (int *)malloc(sizeof(int) * (size_t)n);
    int i, sum = 0, top;
    if (a == NULL)
        return 2;
    for (i = 0; i < n; i++)
        a[i] = i;
    for (i = 0; i < n + extra; i++)
        sum += a[i];
    free(a);
    if (strcmp(mode, "overflow") == 0)
        top = base + step; /* signed overflow: undefined behaviour */
    else
        top = base - step;
    return sum == 28 && top != 0 ? 0 : 3;
}

#ifndef CANARY_SHARED
int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: sanitizer_canary heap|overflow|clean\n", stderr);
        return 2;
    }
    return canary_run(argv[1]);
}
#endif
