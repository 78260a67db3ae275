// cooperative_groups/reduce.h for the opsdk CUDA simulator: cg::reduce is in cooperative_groups.h.
#pragma once
#include "../cooperative_groups.h"
