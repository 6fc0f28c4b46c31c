// The runtime guide's 设备管理 snippets (device information, selection, attribute queries).
#include "check.h"

int main() {
  int deviceId = 0;
  // 获取设备信息
  int deviceCount;
  musaGetDeviceCount(&deviceCount);
  printf("Available devices: %d\n", deviceCount);
  musaDeviceProp_t prop;
  musaGetDeviceProperties(&prop, deviceId);
  printf("Device Name: %s\n", prop.name);
  printf("Total Global Memory: %zu MB\n", prop.totalGlobalMem / 1024 / 1024);
  printf("Compute Capability: %d.%d\n", prop.major, prop.minor);
  printf("Multiprocessor Count: %d\n", prop.multiProcessorCount);
  printf("Max Threads Per Block: %d\n", prop.maxThreadsPerBlock);
  printf("Warp Size: %d\n", prop.warpSize);
  CHECK(deviceCount == 2 || onHardware(), "MUSA_SIM_DEVICE_COUNT=2 gives two devices, got %d",
        deviceCount);

  // 选择设备
  musaSetDevice(deviceId);
  int currentDevice;
  musaGetDevice(&currentDevice);
  printf("Current device: %d\n", currentDevice);
  CHECK(currentDevice == deviceId, "current device");
  CHECK_MUSA(musaDeviceReset());
  CHECK_MUSA(musaDeviceSynchronize());

  // 设备属性查询
  int device = 0, peerDevice = 1;
  int canAccess = 1;
  if (deviceCount > 1) // one GPU on the hardware: no peer to ask about
    CHECK_MUSA(musaDeviceCanAccessPeer(&canAccess, device, peerDevice));
  char pciBusId[16];
  CHECK_MUSA(musaDeviceGetPCIBusId(pciBusId, sizeof(pciBusId), device));
  musaUuid_t uuid;
  CHECK_MUSA(musaDeviceGetUuid(&uuid, device));
  printf("peer access %d, PCI %s\n", canAccess, pciBusId);
  CHECK(canAccess == 1, "two simulated devices can access each other");
  return finish("guide_device");
}
