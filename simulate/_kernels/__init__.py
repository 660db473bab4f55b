"""Private Numba kernels: arrays and ints in, arrays out (no text, no validation)."""
