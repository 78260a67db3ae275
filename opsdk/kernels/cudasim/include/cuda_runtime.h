// cuda_runtime.h for the opsdk CUDA simulator: what it declares is in opsdk_cuda_sim.h, always included.
#pragma once
