#include "kernels.h"

DEMO_DEFINE_UNIT(unit01, 0xff51afd7ed558ccdull, 31)
