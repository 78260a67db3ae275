"""The pack's kernels (opsdk.kernels.Kernel objects), one module per op family."""
