#include "kernels.h"

DEMO_DEFINE_UNIT(unit05, 0x9e3779b97f4a7c15ull, 23)
