/* musa_vector_types.h - vector types (int2, float4, ...), dim3 and the make_* helpers.
 * Alignments follow CUDA's so structures shared between host and device code agree. */
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__

#include "musa_device_prelude.h"

struct __align__(1) char1 { signed char x; };
typedef struct char1 char1;
static __inline__ __host__ __device__ char1 make_char1(signed char x) { char1 v = {x}; return v; }
struct __align__(2) char2 { signed char x; signed char y; };
typedef struct char2 char2;
static __inline__ __host__ __device__ char2 make_char2(signed char x, signed char y) { char2 v = {x, y}; return v; }
struct __align__(1) char3 { signed char x; signed char y; signed char z; };
typedef struct char3 char3;
static __inline__ __host__ __device__ char3 make_char3(signed char x, signed char y, signed char z) { char3 v = {x, y, z}; return v; }
struct __align__(4) char4 { signed char x; signed char y; signed char z; signed char w; };
typedef struct char4 char4;
static __inline__ __host__ __device__ char4 make_char4(signed char x, signed char y, signed char z, signed char w) { char4 v = {x, y, z, w}; return v; }
struct __align__(1) uchar1 { unsigned char x; };
typedef struct uchar1 uchar1;
static __inline__ __host__ __device__ uchar1 make_uchar1(unsigned char x) { uchar1 v = {x}; return v; }
struct __align__(2) uchar2 { unsigned char x; unsigned char y; };
typedef struct uchar2 uchar2;
static __inline__ __host__ __device__ uchar2 make_uchar2(unsigned char x, unsigned char y) { uchar2 v = {x, y}; return v; }
struct __align__(1) uchar3 { unsigned char x; unsigned char y; unsigned char z; };
typedef struct uchar3 uchar3;
static __inline__ __host__ __device__ uchar3 make_uchar3(unsigned char x, unsigned char y, unsigned char z) { uchar3 v = {x, y, z}; return v; }
struct __align__(4) uchar4 { unsigned char x; unsigned char y; unsigned char z; unsigned char w; };
typedef struct uchar4 uchar4;
static __inline__ __host__ __device__ uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w) { uchar4 v = {x, y, z, w}; return v; }
struct __align__(2) short1 { short x; };
typedef struct short1 short1;
static __inline__ __host__ __device__ short1 make_short1(short x) { short1 v = {x}; return v; }
struct __align__(4) short2 { short x; short y; };
typedef struct short2 short2;
static __inline__ __host__ __device__ short2 make_short2(short x, short y) { short2 v = {x, y}; return v; }
struct __align__(2) short3 { short x; short y; short z; };
typedef struct short3 short3;
static __inline__ __host__ __device__ short3 make_short3(short x, short y, short z) { short3 v = {x, y, z}; return v; }
struct __align__(8) short4 { short x; short y; short z; short w; };
typedef struct short4 short4;
static __inline__ __host__ __device__ short4 make_short4(short x, short y, short z, short w) { short4 v = {x, y, z, w}; return v; }
struct __align__(2) ushort1 { unsigned short x; };
typedef struct ushort1 ushort1;
static __inline__ __host__ __device__ ushort1 make_ushort1(unsigned short x) { ushort1 v = {x}; return v; }
struct __align__(4) ushort2 { unsigned short x; unsigned short y; };
typedef struct ushort2 ushort2;
static __inline__ __host__ __device__ ushort2 make_ushort2(unsigned short x, unsigned short y) { ushort2 v = {x, y}; return v; }
struct __align__(2) ushort3 { unsigned short x; unsigned short y; unsigned short z; };
typedef struct ushort3 ushort3;
static __inline__ __host__ __device__ ushort3 make_ushort3(unsigned short x, unsigned short y, unsigned short z) { ushort3 v = {x, y, z}; return v; }
struct __align__(8) ushort4 { unsigned short x; unsigned short y; unsigned short z; unsigned short w; };
typedef struct ushort4 ushort4;
static __inline__ __host__ __device__ ushort4 make_ushort4(unsigned short x, unsigned short y, unsigned short z, unsigned short w) { ushort4 v = {x, y, z, w}; return v; }
struct __align__(4) int1 { int x; };
typedef struct int1 int1;
static __inline__ __host__ __device__ int1 make_int1(int x) { int1 v = {x}; return v; }
struct __align__(8) int2 { int x; int y; };
typedef struct int2 int2;
static __inline__ __host__ __device__ int2 make_int2(int x, int y) { int2 v = {x, y}; return v; }
struct __align__(4) int3 { int x; int y; int z; };
typedef struct int3 int3;
static __inline__ __host__ __device__ int3 make_int3(int x, int y, int z) { int3 v = {x, y, z}; return v; }
struct __align__(16) int4 { int x; int y; int z; int w; };
typedef struct int4 int4;
static __inline__ __host__ __device__ int4 make_int4(int x, int y, int z, int w) { int4 v = {x, y, z, w}; return v; }
struct __align__(4) uint1 { unsigned int x; };
typedef struct uint1 uint1;
static __inline__ __host__ __device__ uint1 make_uint1(unsigned int x) { uint1 v = {x}; return v; }
struct __align__(8) uint2 { unsigned int x; unsigned int y; };
typedef struct uint2 uint2;
static __inline__ __host__ __device__ uint2 make_uint2(unsigned int x, unsigned int y) { uint2 v = {x, y}; return v; }
struct __align__(4) uint3 { unsigned int x; unsigned int y; unsigned int z; };
typedef struct uint3 uint3;
static __inline__ __host__ __device__ uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { uint3 v = {x, y, z}; return v; }
struct __align__(16) uint4 { unsigned int x; unsigned int y; unsigned int z; unsigned int w; };
typedef struct uint4 uint4;
static __inline__ __host__ __device__ uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w) { uint4 v = {x, y, z, w}; return v; }
struct __align__(8) long1 { long x; };
typedef struct long1 long1;
static __inline__ __host__ __device__ long1 make_long1(long x) { long1 v = {x}; return v; }
struct __align__(16) long2 { long x; long y; };
typedef struct long2 long2;
static __inline__ __host__ __device__ long2 make_long2(long x, long y) { long2 v = {x, y}; return v; }
struct __align__(8) long3 { long x; long y; long z; };
typedef struct long3 long3;
static __inline__ __host__ __device__ long3 make_long3(long x, long y, long z) { long3 v = {x, y, z}; return v; }
struct __align__(16) long4 { long x; long y; long z; long w; };
typedef struct long4 long4;
static __inline__ __host__ __device__ long4 make_long4(long x, long y, long z, long w) { long4 v = {x, y, z, w}; return v; }
struct __align__(8) ulong1 { unsigned long x; };
typedef struct ulong1 ulong1;
static __inline__ __host__ __device__ ulong1 make_ulong1(unsigned long x) { ulong1 v = {x}; return v; }
struct __align__(16) ulong2 { unsigned long x; unsigned long y; };
typedef struct ulong2 ulong2;
static __inline__ __host__ __device__ ulong2 make_ulong2(unsigned long x, unsigned long y) { ulong2 v = {x, y}; return v; }
struct __align__(8) ulong3 { unsigned long x; unsigned long y; unsigned long z; };
typedef struct ulong3 ulong3;
static __inline__ __host__ __device__ ulong3 make_ulong3(unsigned long x, unsigned long y, unsigned long z) { ulong3 v = {x, y, z}; return v; }
struct __align__(16) ulong4 { unsigned long x; unsigned long y; unsigned long z; unsigned long w; };
typedef struct ulong4 ulong4;
static __inline__ __host__ __device__ ulong4 make_ulong4(unsigned long x, unsigned long y, unsigned long z, unsigned long w) { ulong4 v = {x, y, z, w}; return v; }
struct __align__(8) longlong1 { long long x; };
typedef struct longlong1 longlong1;
static __inline__ __host__ __device__ longlong1 make_longlong1(long long x) { longlong1 v = {x}; return v; }
struct __align__(16) longlong2 { long long x; long long y; };
typedef struct longlong2 longlong2;
static __inline__ __host__ __device__ longlong2 make_longlong2(long long x, long long y) { longlong2 v = {x, y}; return v; }
struct __align__(8) longlong3 { long long x; long long y; long long z; };
typedef struct longlong3 longlong3;
static __inline__ __host__ __device__ longlong3 make_longlong3(long long x, long long y, long long z) { longlong3 v = {x, y, z}; return v; }
struct __align__(16) longlong4 { long long x; long long y; long long z; long long w; };
typedef struct longlong4 longlong4;
static __inline__ __host__ __device__ longlong4 make_longlong4(long long x, long long y, long long z, long long w) { longlong4 v = {x, y, z, w}; return v; }
struct __align__(8) ulonglong1 { unsigned long long x; };
typedef struct ulonglong1 ulonglong1;
static __inline__ __host__ __device__ ulonglong1 make_ulonglong1(unsigned long long x) { ulonglong1 v = {x}; return v; }
struct __align__(16) ulonglong2 { unsigned long long x; unsigned long long y; };
typedef struct ulonglong2 ulonglong2;
static __inline__ __host__ __device__ ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y) { ulonglong2 v = {x, y}; return v; }
struct __align__(8) ulonglong3 { unsigned long long x; unsigned long long y; unsigned long long z; };
typedef struct ulonglong3 ulonglong3;
static __inline__ __host__ __device__ ulonglong3 make_ulonglong3(unsigned long long x, unsigned long long y, unsigned long long z) { ulonglong3 v = {x, y, z}; return v; }
struct __align__(16) ulonglong4 { unsigned long long x; unsigned long long y; unsigned long long z; unsigned long long w; };
typedef struct ulonglong4 ulonglong4;
static __inline__ __host__ __device__ ulonglong4 make_ulonglong4(unsigned long long x, unsigned long long y, unsigned long long z, unsigned long long w) { ulonglong4 v = {x, y, z, w}; return v; }
struct __align__(4) float1 { float x; };
typedef struct float1 float1;
static __inline__ __host__ __device__ float1 make_float1(float x) { float1 v = {x}; return v; }
struct __align__(8) float2 { float x; float y; };
typedef struct float2 float2;
static __inline__ __host__ __device__ float2 make_float2(float x, float y) { float2 v = {x, y}; return v; }
struct __align__(4) float3 { float x; float y; float z; };
typedef struct float3 float3;
static __inline__ __host__ __device__ float3 make_float3(float x, float y, float z) { float3 v = {x, y, z}; return v; }
struct __align__(16) float4 { float x; float y; float z; float w; };
typedef struct float4 float4;
static __inline__ __host__ __device__ float4 make_float4(float x, float y, float z, float w) { float4 v = {x, y, z, w}; return v; }
struct __align__(8) double1 { double x; };
typedef struct double1 double1;
static __inline__ __host__ __device__ double1 make_double1(double x) { double1 v = {x}; return v; }
struct __align__(16) double2 { double x; double y; };
typedef struct double2 double2;
static __inline__ __host__ __device__ double2 make_double2(double x, double y) { double2 v = {x, y}; return v; }
struct __align__(8) double3 { double x; double y; double z; };
typedef struct double3 double3;
static __inline__ __host__ __device__ double3 make_double3(double x, double y, double z) { double3 v = {x, y, z}; return v; }
struct __align__(16) double4 { double x; double y; double z; double w; };
typedef struct double4 double4;
static __inline__ __host__ __device__ double4 make_double4(double x, double y, double z, double w) { double4 v = {x, y, z, w}; return v; }

#ifdef __cplusplus
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};
#else
typedef struct dim3 { unsigned int x, y, z; } dim3;
#endif

#endif /* __VECTOR_TYPES_H__ */
