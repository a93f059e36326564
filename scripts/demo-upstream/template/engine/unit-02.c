#include "kernels.h"

DEMO_DEFINE_UNIT(unit02, 0xc4ceb9fe1a85ec53ull, 27)
