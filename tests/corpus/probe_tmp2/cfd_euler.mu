// Rodinia cfd (euler3d): unstructured-mesh finite-volume Euler solver in structure-of-arrays layout, padded to a
// multiple of the 192-thread block by duplicating the last element; far-field state and flux contributions in
// __constant__ memory (float arrays and float3), kernels initialize_variables, compute_step_factor, compute_flux
// (4 neighbours, wall -1 / far-field -2 boundaries, artificial viscosity, #pragma unroll) and time_step in a 3-stage
// Runge-Kutta host loop with device-to-device copies; compared with the same solver on the host.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <algorithm>

#define block_length 192
#define GAMMA 1.4
#define NDIM 3
#define NNB 4
#define RK 3
#define ff_mach 1.2
#define deg_angle_of_attack 0.0f
#define VAR_DENSITY 0
#define VAR_MOMENTUM 1
#define VAR_DENSITY_ENERGY (VAR_MOMENTUM + NDIM)
#define NVAR (VAR_DENSITY_ENERGY + 1)

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

__constant__ float ff_variable[NVAR];
__constant__ float3 ff_flux_contribution_momentum_x[1];
__constant__ float3 ff_flux_contribution_momentum_y[1];
__constant__ float3 ff_flux_contribution_momentum_z[1];
__constant__ float3 ff_flux_contribution_density_energy[1];

__global__ void cuda_initialize_variables(int nelr, float *variables) {
  const int i = (blockDim.x * blockIdx.x + threadIdx.x);
  for (int j = 0; j < NVAR; j++)
    variables[i + j * nelr] = ff_variable[j];
}

__device__ __host__ inline void compute_flux_contribution(float &density, float3 &momentum, float &density_energy,
                                                          float &pressure, float3 &velocity, float3 &fc_momentum_x,
                                                          float3 &fc_momentum_y, float3 &fc_momentum_z,
                                                          float3 &fc_density_energy) {
  fc_momentum_x.x = velocity.x * momentum.x + pressure;
  fc_momentum_x.y = velocity.x * momentum.y;
  fc_momentum_x.z = velocity.x * momentum.z;
  fc_momentum_y.x = fc_momentum_x.y;
  fc_momentum_y.y = velocity.y * momentum.y + pressure;
  fc_momentum_y.z = velocity.y * momentum.z;
  fc_momentum_z.x = fc_momentum_x.z;
  fc_momentum_z.y = fc_momentum_y.z;
  fc_momentum_z.z = velocity.z * momentum.z + pressure;
  float de_p = density_energy + pressure;
  fc_density_energy.x = velocity.x * de_p;
  fc_density_energy.y = velocity.y * de_p;
  fc_density_energy.z = velocity.z * de_p;
}

__device__ __host__ inline void compute_velocity(float &density, float3 &momentum, float3 &velocity) {
  velocity.x = momentum.x / density;
  velocity.y = momentum.y / density;
  velocity.z = momentum.z / density;
}
__device__ __host__ inline float compute_speed_sqd(float3 &velocity) {
  return velocity.x * velocity.x + velocity.y * velocity.y + velocity.z * velocity.z;
}
__device__ __host__ inline float compute_pressure(float &density, float &density_energy, float &speed_sqd) {
  return (float(GAMMA) - float(1.0f)) * (density_energy - float(0.5f) * density * speed_sqd);
}
__device__ __host__ inline float compute_speed_of_sound(float &density, float &pressure) {
  return sqrtf(float(GAMMA) * pressure / density);
}

__global__ void cuda_compute_step_factor(int nelr, float *variables, float *areas, float *step_factors) {
  const int i = (blockDim.x * blockIdx.x + threadIdx.x);
  float density = variables[i + VAR_DENSITY * nelr];
  float3 momentum;
  momentum.x = variables[i + (VAR_MOMENTUM + 0) * nelr];
  momentum.y = variables[i + (VAR_MOMENTUM + 1) * nelr];
  momentum.z = variables[i + (VAR_MOMENTUM + 2) * nelr];
  float density_energy = variables[i + VAR_DENSITY_ENERGY * nelr];
  float3 velocity;
  compute_velocity(density, momentum, velocity);
  float speed_sqd = compute_speed_sqd(velocity);
  float pressure = compute_pressure(density, density_energy, speed_sqd);
  float speed_of_sound = compute_speed_of_sound(density, pressure);
  step_factors[i] = float(0.5f) / (sqrtf(areas[i]) * (sqrtf(speed_sqd) + speed_of_sound));
}

// Shared by the device kernel and the host reference (ffv/ffx/ffy/ffz/ffde: far-field constants).
__device__ __host__ inline void flux_one(int i, int nelr, const int *elements_surrounding_elements,
                                         const float *normals, const float *variables, float *fluxes,
                                         const float *ffv, const float3 &ffx, const float3 &ffy, const float3 &ffz,
                                         const float3 &ffde) {
  const float smoothing_coefficient = float(0.2f);
  int j, nb;
  float3 normal;
  float normal_len;
  float factor;
  float density_i = variables[i + VAR_DENSITY * nelr];
  float3 momentum_i;
  momentum_i.x = variables[i + (VAR_MOMENTUM + 0) * nelr];
  momentum_i.y = variables[i + (VAR_MOMENTUM + 1) * nelr];
  momentum_i.z = variables[i + (VAR_MOMENTUM + 2) * nelr];
  float density_energy_i = variables[i + VAR_DENSITY_ENERGY * nelr];
  float3 velocity_i;
  compute_velocity(density_i, momentum_i, velocity_i);
  float speed_sqd_i = compute_speed_sqd(velocity_i);
  float speed_i = sqrtf(speed_sqd_i);
  float pressure_i = compute_pressure(density_i, density_energy_i, speed_sqd_i);
  float speed_of_sound_i = compute_speed_of_sound(density_i, pressure_i);
  float3 flux_contribution_i_momentum_x, flux_contribution_i_momentum_y, flux_contribution_i_momentum_z;
  float3 flux_contribution_i_density_energy;
  compute_flux_contribution(density_i, momentum_i, density_energy_i, pressure_i, velocity_i,
                            flux_contribution_i_momentum_x, flux_contribution_i_momentum_y,
                            flux_contribution_i_momentum_z, flux_contribution_i_density_energy);
  float flux_i_density = float(0.0f);
  float3 flux_i_momentum;
  flux_i_momentum.x = float(0.0f);
  flux_i_momentum.y = float(0.0f);
  flux_i_momentum.z = float(0.0f);
  float flux_i_density_energy = float(0.0f);
  float3 velocity_nb;
  float density_nb, density_energy_nb;
  float3 momentum_nb;
  float3 flux_contribution_nb_momentum_x, flux_contribution_nb_momentum_y, flux_contribution_nb_momentum_z;
  float3 flux_contribution_nb_density_energy;
  float speed_sqd_nb, speed_of_sound_nb, pressure_nb;
#pragma unroll
  for (j = 0; j < NNB; j++) {
    nb = elements_surrounding_elements[i + j * nelr];
    normal.x = normals[i + (j + 0 * NNB) * nelr];
    normal.y = normals[i + (j + 1 * NNB) * nelr];
    normal.z = normals[i + (j + 2 * NNB) * nelr];
    normal_len = sqrtf(normal.x * normal.x + normal.y * normal.y + normal.z * normal.z);
    if (nb >= 0) {
      density_nb = variables[nb + VAR_DENSITY * nelr];
      momentum_nb.x = variables[nb + (VAR_MOMENTUM + 0) * nelr];
      momentum_nb.y = variables[nb + (VAR_MOMENTUM + 1) * nelr];
      momentum_nb.z = variables[nb + (VAR_MOMENTUM + 2) * nelr];
      density_energy_nb = variables[nb + VAR_DENSITY_ENERGY * nelr];
      compute_velocity(density_nb, momentum_nb, velocity_nb);
      speed_sqd_nb = compute_speed_sqd(velocity_nb);
      pressure_nb = compute_pressure(density_nb, density_energy_nb, speed_sqd_nb);
      speed_of_sound_nb = compute_speed_of_sound(density_nb, pressure_nb);
      compute_flux_contribution(density_nb, momentum_nb, density_energy_nb, pressure_nb, velocity_nb,
                                flux_contribution_nb_momentum_x, flux_contribution_nb_momentum_y,
                                flux_contribution_nb_momentum_z, flux_contribution_nb_density_energy);
      factor = -normal_len * smoothing_coefficient * float(0.5f) *
               (speed_i + sqrtf(speed_sqd_nb) + speed_of_sound_i + speed_of_sound_nb);
      flux_i_density += factor * (density_i - density_nb);
      flux_i_density_energy += factor * (density_energy_i - density_energy_nb);
      flux_i_momentum.x += factor * (momentum_i.x - momentum_nb.x);
      flux_i_momentum.y += factor * (momentum_i.y - momentum_nb.y);
      flux_i_momentum.z += factor * (momentum_i.z - momentum_nb.z);
      factor = float(0.5f) * normal.x;
      flux_i_density += factor * (momentum_nb.x + momentum_i.x);
      flux_i_density_energy += factor * (flux_contribution_nb_density_energy.x + flux_contribution_i_density_energy.x);
      flux_i_momentum.x += factor * (flux_contribution_nb_momentum_x.x + flux_contribution_i_momentum_x.x);
      flux_i_momentum.y += factor * (flux_contribution_nb_momentum_y.x + flux_contribution_i_momentum_y.x);
      flux_i_momentum.z += factor * (flux_contribution_nb_momentum_z.x + flux_contribution_i_momentum_z.x);
      factor = float(0.5f) * normal.y;
      flux_i_density += factor * (momentum_nb.y + momentum_i.y);
      flux_i_density_energy += factor * (flux_contribution_nb_density_energy.y + flux_contribution_i_density_energy.y);
      flux_i_momentum.x += factor * (flux_contribution_nb_momentum_x.y + flux_contribution_i_momentum_x.y);
      flux_i_momentum.y += factor * (flux_contribution_nb_momentum_y.y + flux_contribution_i_momentum_y.y);
      flux_i_momentum.z += factor * (flux_contribution_nb_momentum_z.y + flux_contribution_i_momentum_z.y);
      factor = float(0.5f) * normal.z;
      flux_i_density += factor * (momentum_nb.z + momentum_i.z);
      flux_i_density_energy += factor * (flux_contribution_nb_density_energy.z + flux_contribution_i_density_energy.z);
      flux_i_momentum.x += factor * (flux_contribution_nb_momentum_x.z + flux_contribution_i_momentum_x.z);
      flux_i_momentum.y += factor * (flux_contribution_nb_momentum_y.z + flux_contribution_i_momentum_y.z);
      flux_i_momentum.z += factor * (flux_contribution_nb_momentum_z.z + flux_contribution_i_momentum_z.z);
    } else if (nb == -1) {
      flux_i_momentum.x += normal.x * pressure_i;
      flux_i_momentum.y += normal.y * pressure_i;
      flux_i_momentum.z += normal.z * pressure_i;
    } else if (nb == -2) {
      factor = float(0.5f) * normal.x;
      flux_i_density += factor * (ffv[VAR_MOMENTUM + 0] + momentum_i.x);
      flux_i_density_energy += factor * (ffde.x + flux_contribution_i_density_energy.x);
      flux_i_momentum.x += factor * (ffx.x + flux_contribution_i_momentum_x.x);
      flux_i_momentum.y += factor * (ffy.x + flux_contribution_i_momentum_y.x);
      flux_i_momentum.z += factor * (ffz.x + flux_contribution_i_momentum_z.x);
      factor = float(0.5f) * normal.y;
      flux_i_density += factor * (ffv[VAR_MOMENTUM + 1] + momentum_i.y);
      flux_i_density_energy += factor * (ffde.y + flux_contribution_i_density_energy.y);
      flux_i_momentum.x += factor * (ffx.y + flux_contribution_i_momentum_x.y);
      flux_i_momentum.y += factor * (ffy.y + flux_contribution_i_momentum_y.y);
      flux_i_momentum.z += factor * (ffz.y + flux_contribution_i_momentum_z.y);
      factor = float(0.5f) * normal.z;
      flux_i_density += factor * (ffv[VAR_MOMENTUM + 2] + momentum_i.z);
      flux_i_density_energy += factor * (ffde.z + flux_contribution_i_density_energy.z);
      flux_i_momentum.x += factor * (ffx.z + flux_contribution_i_momentum_x.z);
      flux_i_momentum.y += factor * (ffy.z + flux_contribution_i_momentum_y.z);
      flux_i_momentum.z += factor * (ffz.z + flux_contribution_i_momentum_z.z);
    }
  }
  fluxes[i + VAR_DENSITY * nelr] = flux_i_density;
  fluxes[i + (VAR_MOMENTUM + 0) * nelr] = flux_i_momentum.x;
  fluxes[i + (VAR_MOMENTUM + 1) * nelr] = flux_i_momentum.y;
  fluxes[i + (VAR_MOMENTUM + 2) * nelr] = flux_i_momentum.z;
  fluxes[i + VAR_DENSITY_ENERGY * nelr] = flux_i_density_energy;
}

__global__ void cuda_compute_flux(int nelr, int *elements_surrounding_elements, float *normals, float *variables,
                                  float *fluxes) {
  const int i = (blockDim.x * blockIdx.x + threadIdx.x);
  flux_one(i, nelr, elements_surrounding_elements, normals, variables, fluxes, ff_variable,
           ff_flux_contribution_momentum_x[0], ff_flux_contribution_momentum_y[0],
           ff_flux_contribution_momentum_z[0], ff_flux_contribution_density_energy[0]);
}

__global__ void cuda_time_step(int j, int nelr, float *old_variables, float *variables, float *step_factors,
                               float *fluxes) {
  const int i = (blockDim.x * blockIdx.x + threadIdx.x);
  float factor = step_factors[i] / float(RK + 1 - j);
  variables[i + VAR_DENSITY * nelr] = old_variables[i + VAR_DENSITY * nelr] + factor * fluxes[i + VAR_DENSITY * nelr];
  variables[i + VAR_DENSITY_ENERGY * nelr] =
      old_variables[i + VAR_DENSITY_ENERGY * nelr] + factor * fluxes[i + VAR_DENSITY_ENERGY * nelr];
  variables[i + (VAR_MOMENTUM + 0) * nelr] =
      old_variables[i + (VAR_MOMENTUM + 0) * nelr] + factor * fluxes[i + (VAR_MOMENTUM + 0) * nelr];
  variables[i + (VAR_MOMENTUM + 1) * nelr] =
      old_variables[i + (VAR_MOMENTUM + 1) * nelr] + factor * fluxes[i + (VAR_MOMENTUM + 1) * nelr];
  variables[i + (VAR_MOMENTUM + 2) * nelr] =
      old_variables[i + (VAR_MOMENTUM + 2) * nelr] + factor * fluxes[i + (VAR_MOMENTUM + 2) * nelr];
}

static int run(int nx, int ny, int iterations) {
  int nel = nx * ny;
  int nelr = block_length * ((nel / block_length) + std::min(1, nel % block_length));
  float h_ff_variable[NVAR];
  const float angle_of_attack = float(3.1415926535897931 / 180.0f) * float(deg_angle_of_attack);
  h_ff_variable[VAR_DENSITY] = float(1.4);
  float ff_pressure = float(1.0f);
  float ff_speed_of_sound = sqrt(GAMMA * ff_pressure / h_ff_variable[VAR_DENSITY]);
  float ff_speed = float(ff_mach) * ff_speed_of_sound;
  float3 ff_velocity;
  ff_velocity.x = ff_speed * float(cos((float)angle_of_attack));
  ff_velocity.y = ff_speed * float(sin((float)angle_of_attack));
  ff_velocity.z = 0.0f;
  h_ff_variable[VAR_MOMENTUM + 0] = h_ff_variable[VAR_DENSITY] * ff_velocity.x;
  h_ff_variable[VAR_MOMENTUM + 1] = h_ff_variable[VAR_DENSITY] * ff_velocity.y;
  h_ff_variable[VAR_MOMENTUM + 2] = h_ff_variable[VAR_DENSITY] * ff_velocity.z;
  h_ff_variable[VAR_DENSITY_ENERGY] =
      h_ff_variable[VAR_DENSITY] * (float(0.5f) * (ff_speed * ff_speed)) + (ff_pressure / float(GAMMA - 1.0f));
  float3 h_ff_momentum;
  h_ff_momentum.x = *(h_ff_variable + VAR_MOMENTUM + 0);
  h_ff_momentum.y = *(h_ff_variable + VAR_MOMENTUM + 1);
  h_ff_momentum.z = *(h_ff_variable + VAR_MOMENTUM + 2);
  float3 h_ffx, h_ffy, h_ffz, h_ffde;
  compute_flux_contribution(h_ff_variable[VAR_DENSITY], h_ff_momentum, h_ff_variable[VAR_DENSITY_ENERGY], ff_pressure,
                            ff_velocity, h_ffx, h_ffy, h_ffz, h_ffde);
  CHECK(musaMemcpyToSymbol(ff_variable, h_ff_variable, NVAR * sizeof(float)));
  CHECK(musaMemcpyToSymbol(ff_flux_contribution_momentum_x, &h_ffx, sizeof(float3)));
  CHECK(musaMemcpyToSymbol(ff_flux_contribution_momentum_y, &h_ffy, sizeof(float3)));
  CHECK(musaMemcpyToSymbol(ff_flux_contribution_momentum_z, &h_ffz, sizeof(float3)));
  CHECK(musaMemcpyToSymbol(ff_flux_contribution_density_energy, &h_ffde, sizeof(float3)));

  // a structured quad mesh stored as an unstructured one; non-uniform x spacing; the bottom row is the wing
  float *areas = (float *)malloc(nelr * sizeof(float));
  int *ese = (int *)malloc(nelr * NNB * sizeof(int));
  float *normals = (float *)malloc(nelr * NDIM * NNB * sizeof(float));
  for (int y = 0; y < ny; y++)
    for (int x = 0; x < nx; x++) {
      int i = y * nx + x;
      float dx = 0.05f * (1.0f + 0.3f * sinf(0.7f * x)), dy = 0.05f;
      areas[i] = dx * dy;
      int nbs[NNB] = {x + 1 < nx ? i + 1 : -2, x > 0 ? i - 1 : -2, y + 1 < ny ? i + nx : -2, y > 0 ? i - nx : -1};
      float nrm[NNB][3] = {{dy, 0, 0}, {-dy, 0, 0}, {0, dx, 0}, {0, -dx, 0}};
      for (int j = 0; j < NNB; j++) {
        ese[i + j * nelr] = nbs[j];
        for (int d = 0; d < NDIM; d++)
          normals[i + (j + d * NNB) * nelr] = nrm[j][d] * (1.0f + 0.01f * (d == 2 ? 0 : (i % 3)));
      }
    }
  int last = nel - 1;
  for (int i = nel; i < nelr; i++) {
    areas[i] = areas[last];
    for (int j = 0; j < NNB; j++) {
      ese[i + j * nelr] = ese[last + j * nelr];
      for (int d = 0; d < NDIM; d++)
        normals[i + (j + d * NNB) * nelr] = normals[last + (j + d * NNB) * nelr];
    }
  }
  float *d_areas, *d_normals, *d_variables, *d_old_variables, *d_fluxes, *d_step_factors;
  int *d_ese;
  CHECK(musaMalloc((void **)&d_areas, nelr * sizeof(float)));
  CHECK(musaMalloc((void **)&d_ese, nelr * NNB * sizeof(int)));
  CHECK(musaMalloc((void **)&d_normals, nelr * NDIM * NNB * sizeof(float)));
  CHECK(musaMalloc((void **)&d_variables, nelr * NVAR * sizeof(float)));
  CHECK(musaMalloc((void **)&d_old_variables, nelr * NVAR * sizeof(float)));
  CHECK(musaMalloc((void **)&d_fluxes, nelr * NVAR * sizeof(float)));
  CHECK(musaMalloc((void **)&d_step_factors, nelr * sizeof(float)));
  CHECK(musaMemcpy(d_areas, areas, nelr * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d_ese, ese, nelr * NNB * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d_normals, normals, nelr * NDIM * NNB * sizeof(float), musaMemcpyHostToDevice));
  dim3 Dg(nelr / block_length), Db(block_length);
  cuda_initialize_variables<<<Dg, Db>>>(nelr, d_variables);
  cuda_initialize_variables<<<Dg, Db>>>(nelr, d_old_variables);
  cuda_initialize_variables<<<Dg, Db>>>(nelr, d_fluxes);
  CHECK(musaMemset(d_step_factors, 0, sizeof(float) * nelr));
  // a pressure/density bump in the middle of the far-field state, so the flow has something to do
  float *init = (float *)malloc(nelr * NVAR * sizeof(float));
  CHECK(musaMemcpy(init, d_variables, nelr * NVAR * sizeof(float), musaMemcpyDeviceToHost));
  for (int i = 0; i < nelr; i++) {
    int x = (i < nel ? i : last) % nx, y = (i < nel ? i : last) / nx;
    float r2 = (x - nx / 2) * (x - nx / 2) + (y - ny / 3) * (y - ny / 3);
    float bump = 0.3f * expf(-r2 / 8.0f);
    init[i + VAR_DENSITY * nelr] *= 1.0f + bump;
    init[i + VAR_DENSITY_ENERGY * nelr] *= 1.0f + 2.0f * bump;
  }
  CHECK(musaMemcpy(d_variables, init, nelr * NVAR * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaDeviceSynchronize());
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventRecord(e0));
  for (int i = 0; i < iterations; i++) {
    CHECK(musaMemcpy(d_old_variables, d_variables, nelr * NVAR * sizeof(float), musaMemcpyDeviceToDevice));
    cuda_compute_step_factor<<<Dg, Db>>>(nelr, d_variables, d_areas, d_step_factors);
    for (int j = 0; j < RK; j++) {
      cuda_compute_flux<<<Dg, Db>>>(nelr, d_ese, d_normals, d_variables, d_fluxes);
      cuda_time_step<<<Dg, Db>>>(j, nelr, d_old_variables, d_variables, d_step_factors, d_fluxes);
    }
  }
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaGetLastError());
  float ms;
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  float *result = (float *)malloc(nelr * NVAR * sizeof(float));
  CHECK(musaMemcpy(result, d_variables, nelr * NVAR * sizeof(float), musaMemcpyDeviceToHost));

  // host reference
  float *v = (float *)malloc(nelr * NVAR * sizeof(float)), *ov = (float *)malloc(nelr * NVAR * sizeof(float));
  float *fl = (float *)malloc(nelr * NVAR * sizeof(float)), *sf = (float *)malloc(nelr * sizeof(float));
  for (int i = 0; i < nelr * NVAR; i++)
    v[i] = init[i];
  for (int it = 0; it < iterations; it++) {
    for (int i = 0; i < nelr * NVAR; i++)
      ov[i] = v[i];
    for (int i = 0; i < nelr; i++) {
      float density = v[i];
      float3 mom = make_float3(v[i + 1 * nelr], v[i + 2 * nelr], v[i + 3 * nelr]);
      float de = v[i + VAR_DENSITY_ENERGY * nelr];
      float3 vel;
      compute_velocity(density, mom, vel);
      float ssq = compute_speed_sqd(vel), p = compute_pressure(density, de, ssq);
      float c = compute_speed_of_sound(density, p);
      sf[i] = float(0.5f) / (sqrtf(areas[i]) * (sqrtf(ssq) + c));
    }
    for (int j = 0; j < RK; j++) {
      for (int i = 0; i < nelr; i++)
        flux_one(i, nelr, ese, normals, v, fl, h_ff_variable, h_ffx, h_ffy, h_ffz, h_ffde);
      for (int i = 0; i < nelr; i++) {
        float factor = sf[i] / float(RK + 1 - j);
        for (int k = 0; k < NVAR; k++)
          v[i + k * nelr] = ov[i + k * nelr] + factor * fl[i + k * nelr];
      }
    }
  }
  double maxerr = 0;
  int bad = 0;
  for (int k = 0; k < NVAR; k++)
    for (int i = 0; i < nel; i++) {
      double ref = v[i + k * nelr], scale = fabs(h_ff_variable[k]) + fabs(h_ff_variable[VAR_DENSITY]);
      double e = fabs(result[i + k * nelr] - ref) / scale;
      if (e > maxerr)
        maxerr = e;
      if (!(e < 1e-4)) {
        if (bad < 4)
          printf("  var %d elem %d: %g vs %g\n", k, i, result[i + k * nelr], ref);
        bad++;
      }
    }
  double drho = 0;
  for (int i = 0; i < nel; i++)
    for (int k = 0; k < NVAR; k++) drho = fmax(drho, fabs(v[i + k * nelr] - h_ff_variable[k]));
  printf("cfd euler %dx%d mesh (nel %d, nelr %d), %d iterations x %d RK stages: %.3f ms, max |state change| %.3g, max scaled "
         "err %.2e%s\n",
         nx, ny, nel, nelr, iterations, RK, ms, drho, maxerr, bad ? " MISMATCH" : "");
  musaFree(d_areas); musaFree(d_ese); musaFree(d_normals); musaFree(d_variables); musaFree(d_old_variables);
  musaFree(d_fluxes); musaFree(d_step_factors); musaEventDestroy(e0); musaEventDestroy(e1);
  free(areas); free(ese); free(normals); free(result); free(v); free(ov); free(fl); free(sf); free(init);
  return bad;
}

int main() {
  int bad = 0;
  bad += run(30, 20, 6);
  bad += run(24, 16, 4);
  bad += run(50, 21, 3);
  printf("cfd_euler: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
