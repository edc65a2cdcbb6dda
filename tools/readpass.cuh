// tools/readpass.cuh: the read-only pass the hand-written histogram tools measure against
// (hist_variants.cu, sweep_pattern.cu): float4 loads, grid-stride, a sum nothing reads.
#pragma once

__global__ void readpass(const float4 *x, long long n4, float *out) {
  float s = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
    float4 v = x[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 1234567.f) *out = s;
}
