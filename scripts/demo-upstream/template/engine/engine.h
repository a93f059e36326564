#ifndef DEMO_ENGINE_H
#define DEMO_ENGINE_H

#include <stdint.h>

/* Runs every kernel of the engine over a fixed buffer: the same number for the same code. */
uint64_t demo_engine_selftest(void);

#endif
