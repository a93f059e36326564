#include <stddef.h>

#include "engine.h"
#include "kernels.h"

uint64_t unit01_all(const uint8_t *p, size_t len, uint64_t seed);
uint64_t unit02_all(const uint8_t *p, size_t len, uint64_t seed);
uint64_t unit03_all(const uint8_t *p, size_t len, uint64_t seed);
uint64_t unit04_all(const uint8_t *p, size_t len, uint64_t seed);
uint64_t unit05_all(const uint8_t *p, size_t len, uint64_t seed);
uint64_t unit06_all(const uint8_t *p, size_t len, uint64_t seed);

uint64_t demo_engine_selftest(void) {
  uint8_t buf[4096];
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 131u + 7u);
  uint64_t h = 0x6a09e667f3bcc908ull;
  h = unit01_all(buf, sizeof buf, h);
  h = unit02_all(buf, sizeof buf, h);
  h = unit03_all(buf, sizeof buf, h);
  h = unit04_all(buf, sizeof buf, h);
  h = unit05_all(buf, sizeof buf, h);
  h = unit06_all(buf, sizeof buf, h);
  return h;
}
