/* check.h: the counters and the CHECK macro of the C unit tests (test_rt.c, test_cuda.c).
   CHECK(cond, fmt, ...) counts a pass, or counts a failure and prints the file, line and
   message; each test prints `N passed, N failed` from the counters at the end. */
#ifndef OQ_TEST_CHECK_H
#define OQ_TEST_CHECK_H
#include <stdio.h>

static int passed, failed;

#define CHECK(cond, ...)                                                 \
  do {                                                                   \
    if (cond) passed++;                                                  \
    else {                                                               \
      failed++;                                                          \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                        \
      printf(__VA_ARGS__);                                               \
      printf("\n");                                                      \
    }                                                                    \
  } while (0)

#endif
