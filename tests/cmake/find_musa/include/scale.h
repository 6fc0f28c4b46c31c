#pragma once
// Multiplies n floats on the device by SCALE_BY (a MUSA_MCC_FLAGS definition).
void scaleOnDevice(float *device, int n);
// Adds `by` to n floats on the device (compiled by mcc from a .cpp file).
void offsetOnDevice(float *device, int n, float by);
