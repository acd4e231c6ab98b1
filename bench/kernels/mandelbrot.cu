extern "C" __global__ void mandelbrot(int *image, float x_min, float y_min, float step,
                                      int max_iter, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) {
    float c_re = x_min + (float)col * step;
    float c_im = y_min + (float)row * step;
    float z_re = 0.0f, z_im = 0.0f;
    int n = 0;
    while (n < max_iter && z_re * z_re + z_im * z_im <= 4.0f) {
      float next_re = z_re * z_re - z_im * z_im + c_re;
      z_im = (z_re + z_re) * z_im + c_im;
      z_re = next_re;
      ++n;
    }
    image[row * cols + col] = n;
  }
}
