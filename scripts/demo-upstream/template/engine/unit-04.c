#include "kernels.h"

DEMO_DEFINE_UNIT(unit04, 0x4cf5ad432745937full, 29)
