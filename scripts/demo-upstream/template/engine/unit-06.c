#include "kernels.h"

DEMO_DEFINE_UNIT(unit06, 0xbf58476d1ce4e5b9ull, 37)
