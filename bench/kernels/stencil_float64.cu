extern "C" __global__ void stencil_float64(double *out, const double *u, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row > 0 && row < rows - 1 && col > 0 && col < cols - 1)
    out[row * cols + col] = 0.25 * (u[(row - 1) * cols + col] + u[(row + 1) * cols + col] +
                                    u[row * cols + col - 1] + u[row * cols + col + 1]);
}
