// Lets a MUSA source (.mu) that uses the runtime API build with nvcc for a real NVIDIA GPU:
//   nvcc -O2 -arch=sm_90 -x cu -I tests/validation/cuda tests/validation/timing_suite.mu -o suite
// Each musa* name the validation suite uses maps to its cuda* twin (the APIs behave the same).
#pragma once
#include <cuda_runtime.h>

// Types and constants
#define musaError_t cudaError_t
#define musaSuccess cudaSuccess
#define musaEvent_t cudaEvent_t
#define musaStream_t cudaStream_t
#define musaMemcpyKind cudaMemcpyKind
#define musaMemcpyHostToHost cudaMemcpyHostToHost
#define musaMemcpyHostToDevice cudaMemcpyHostToDevice
#define musaMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define musaMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define musaMemcpyDefault cudaMemcpyDefault
#define musaDeviceProp cudaDeviceProp

// Errors
#define musaGetLastError cudaGetLastError
#define musaPeekAtLastError cudaPeekAtLastError
#define musaGetErrorString cudaGetErrorString
#define musaGetErrorName cudaGetErrorName

// Memory
#define musaMalloc cudaMalloc
#define musaFree cudaFree
#define musaMallocHost cudaMallocHost
#define musaFreeHost cudaFreeHost
#define musaMemcpy cudaMemcpy
#define musaMemcpyAsync cudaMemcpyAsync
#define musaMemset cudaMemset
#define musaMemsetAsync cudaMemsetAsync

// Events, streams, device
#define musaEventCreate cudaEventCreate
#define musaEventDestroy cudaEventDestroy
#define musaEventRecord cudaEventRecord
#define musaEventSynchronize cudaEventSynchronize
#define musaEventElapsedTime cudaEventElapsedTime
#define musaStreamCreate cudaStreamCreate
#define musaStreamDestroy cudaStreamDestroy
#define musaStreamSynchronize cudaStreamSynchronize
#define musaDeviceSynchronize cudaDeviceSynchronize
#define musaGetDeviceProperties cudaGetDeviceProperties
#define musaSetDevice cudaSetDevice
#define musaGetDevice cudaGetDevice

// Used by timing_mechanisms.mu
#define musaMallocPitch cudaMallocPitch
#define musaMemcpy2D cudaMemcpy2D

// Used by timing_workloads.mu
#define musaMemcpyToSymbol cudaMemcpyToSymbol
#define musaFuncSetAttribute cudaFuncSetAttribute
#define musaFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#define musaGraph_t cudaGraph_t
#define musaGraphExec_t cudaGraphExec_t
#define musaStreamCaptureModeGlobal cudaStreamCaptureModeGlobal
#define musaStreamBeginCapture cudaStreamBeginCapture
#define musaStreamEndCapture cudaStreamEndCapture
#define musaGraphInstantiate cudaGraphInstantiate
#define musaGraphLaunch cudaGraphLaunch
#define musaGraphExecDestroy cudaGraphExecDestroy
#define musaGraphDestroy cudaGraphDestroy
