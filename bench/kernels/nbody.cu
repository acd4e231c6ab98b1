extern "C" __global__ void nbody(float *accel, const float *pos, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float xi = pos[4 * i], yi = pos[4 * i + 1], zi = pos[4 * i + 2];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; ++j) {
      float dx = pos[4 * j] - xi;
      float dy = pos[4 * j + 1] - yi;
      float dz = pos[4 * j + 2] - zi;
      float inverse = 1.0f / sqrtf(dx * dx + dy * dy + dz * dz + 1e-2f);
      float strength = pos[4 * j + 3] * inverse * inverse * inverse;
      ax += dx * strength;
      ay += dy * strength;
      az += dz * strength;
    }
    accel[3 * i] = ax;
    accel[3 * i + 1] = ay;
    accel[3 * i + 2] = az;
  }
}
