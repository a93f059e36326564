/*
 * Stand-in for a server's code base: each unit file instantiates a family of hashing kernels. They are real
 * code (the launcher's --demo-selftest runs them) and give the optimiser a second or so per file, which is
 * what a compiler cache saves between two releases that do not touch these files.
 */
#ifndef DEMO_KERNELS_H
#define DEMO_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#define DEMO_KERNEL(unit, n, mul, rot)                                          \
  static uint64_t unit##_k##n(const uint8_t *p, size_t len, uint64_t seed) {    \
    uint64_t h = seed ^ ((uint64_t)(mul) * (uint64_t)((n) + 1));                \
    for (size_t i = 0; i + 8 <= len; i += 8) {                                   \
      uint64_t v = 0;                                                            \
      for (int b = 0; b < 8; b++) v |= (uint64_t)p[i + b] << (8 * b);            \
      h ^= v * (uint64_t)(mul);                                                  \
      h = (h << (rot)) | (h >> (64 - (rot)));                                    \
      h *= 0x9E3779B97F4A7C15ull;                                                \
    }                                                                            \
    uint32_t acc[16] = {0};                                                      \
    for (size_t i = 0; i < len; i++) acc[i & 15] += p[i] * (uint32_t)((n) + i);  \
    for (int j = 0; j < 16; j++) h += (uint64_t)acc[j] << (j & 7);               \
    return h ^ (h >> 29);                                                        \
  }

#define DEMO_KERNEL_ROW(unit, r, mul, rot)                                       \
  DEMO_KERNEL(unit, r##0, mul, rot) DEMO_KERNEL(unit, r##1, mul, rot)            \
  DEMO_KERNEL(unit, r##2, mul, rot) DEMO_KERNEL(unit, r##3, mul, rot)            \
  DEMO_KERNEL(unit, r##4, mul, rot) DEMO_KERNEL(unit, r##5, mul, rot)            \
  DEMO_KERNEL(unit, r##6, mul, rot) DEMO_KERNEL(unit, r##7, mul, rot)

#define DEMO_CALL_ROW(unit, r, p, len, h)                                        \
  h = unit##_k##r##0(p, len, h); h = unit##_k##r##1(p, len, h);                  \
  h = unit##_k##r##2(p, len, h); h = unit##_k##r##3(p, len, h);                  \
  h = unit##_k##r##4(p, len, h); h = unit##_k##r##5(p, len, h);                  \
  h = unit##_k##r##6(p, len, h); h = unit##_k##r##7(p, len, h);

/* Defines <unit>_all(p, len, seed), which runs the unit's 32 kernels in a chain. */
#define DEMO_DEFINE_UNIT(unit, mul, rot)                                         \
  DEMO_KERNEL_ROW(unit, 1, mul, rot) DEMO_KERNEL_ROW(unit, 2, mul, rot)          \
  DEMO_KERNEL_ROW(unit, 3, mul, rot) DEMO_KERNEL_ROW(unit, 4, mul, rot)          \
  uint64_t unit##_all(const uint8_t *p, size_t len, uint64_t seed) {             \
    uint64_t h = seed;                                                           \
    DEMO_CALL_ROW(unit, 1, p, len, h) DEMO_CALL_ROW(unit, 2, p, len, h)          \
    DEMO_CALL_ROW(unit, 3, p, len, h) DEMO_CALL_ROW(unit, 4, p, len, h)          \
    return h;                                                                    \
  }

#endif
