#include "kernels.h"

DEMO_DEFINE_UNIT(unit03, 0x87c37b91114253d5ull, 33)
