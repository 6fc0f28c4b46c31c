// The vector-addition example of the MUSA runtime API guide (section 完整示例), unchanged.
#include <musa_runtime.h>
#include <stdio.h>

__global__ void vectorAdd(float* a, float* b, float* c, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        c[idx] = a[idx] + b[idx];
    }
}

int main() {
    int n = 1024;
    size_t size = n * sizeof(float);
    
    // 分配主机内存
    float *h_a = (float*)malloc(size);
    float *h_b = (float*)malloc(size);
    float *h_c = (float*)malloc(size);
    
    // 初始化数据
    for (int i = 0; i < n; i++) {
        h_a[i] = float(i);
        h_b[i] = float(i * 2);
    }
    
    // 分配设备内存
    float *d_a, *d_b, *d_c;
    musaMalloc(&d_a, size);
    musaMalloc(&d_b, size);
    musaMalloc(&d_c, size);
    
    // 拷贝数据到设备
    musaMemcpy(d_a, h_a, size, musaMemcpyHostToDevice);
    musaMemcpy(d_b, h_b, size, musaMemcpyHostToDevice);
    
    // 计算网格和块大小
    int blockSize = 256;
    int gridSize = (n + blockSize - 1) / blockSize;
    
    // 启动内核
    vectorAdd<<<gridSize, blockSize>>>(d_a, d_b, d_c, n);
    
    // 检查内核启动错误
    musaError_t err = musaGetLastError();
    if (err != musaSuccess) {
        printf("内核启动失败：%s\n", musaGetErrorString(err));
        return -1;
    }
    
    // 等待完成
    musaDeviceSynchronize();
    
    // 拷贝结果回主机
    musaMemcpy(h_c, d_c, size, musaMemcpyDeviceToHost);
    
    // 验证结果
    for (int i = 0; i < n; i++) {
        if (h_c[i] != h_a[i] + h_b[i]) {
            printf("Error at index %d\n", i);
            break;
        }
    }
    printf("Vector addition completed successfully!\n");
    
    // 清理
    free(h_a); free(h_b); free(h_c);
    musaFree(d_a); musaFree(d_b); musaFree(d_c);
    
    return 0;
}
