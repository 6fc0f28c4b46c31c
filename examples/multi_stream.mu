// The multi-stream example of the MUSA runtime API guide (section 完整示例), unchanged.
#include <musa_runtime.h>
#include <stdio.h>

__global__ void processKernel(float* data, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        data[idx] = data[idx] * 2.0f + 1.0f;
    }
}

int main() {
    const int numStreams = 4;
    musaStream_t streams[numStreams];
    float *h_data[numStreams];
    float *d_data[numStreams];
    
    int n = 1024;
    size_t size = n * sizeof(float);
    
    // 创建流
    for (int i = 0; i < numStreams; i++) {
        musaStreamCreate(&streams[i]);
    }
    
    // 分配内存并启动内核
    for (int i = 0; i < numStreams; i++) {
        // 分配主机 pinned 内存
        musaMallocHost(&h_data[i], size);
        
        // 分配设备内存
        musaMalloc(&d_data[i], size);
        
        // 初始化数据
        for (int j = 0; j < n; j++) {
            h_data[i][j] = float(j);
        }
        
        // 异步拷贝到设备
        musaMemcpyAsync(d_data[i], h_data[i], size, 
                       musaMemcpyHostToDevice, streams[i]);
        
        // 启动内核
        int blockSize = 256;
        int gridSize = (n + blockSize - 1) / blockSize;
        processKernel<<<gridSize, blockSize, 0, streams[i]>>>(d_data[i], n);
        
        // 异步拷贝回主机
        musaMemcpyAsync(h_data[i], d_data[i], size,
                       musaMemcpyDeviceToHost, streams[i]);
    }
    
    // 等待所有流完成
    for (int i = 0; i < numStreams; i++) {
        musaStreamSynchronize(streams[i]);
    }
    
    // 清理
    for (int i = 0; i < numStreams; i++) {
        musaFree(d_data[i]);
        musaFreeHost(h_data[i]);
        musaStreamDestroy(streams[i]);
    }
    
    printf("Multi-stream processing completed!\n");
    
    return 0;
}
