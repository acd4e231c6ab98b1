#include "grid_stride_sum.cuh"

GRID_STRIDE_SUM(grid_stride_sum_while)
