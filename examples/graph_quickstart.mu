// The graphs guide's quick-start example (流捕获), with initial data and a printed result added
// so it checks itself.
#include <stdio.h>
#include <musa_runtime.h>

__global__ void myKernel(float* data, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        data[idx] = data[idx] * 2.0f;
    }
}

int main() {
    float *d_data;
    musaMalloc(&d_data, 1024 * sizeof(float));
    float init[1024];
    for (int i = 0; i < 1024; i++) init[i] = (float)i;
    musaMemcpy(d_data, init, sizeof init, musaMemcpyHostToDevice);
    
    musaStream_t stream;
    musaStreamCreate(&stream);
    
    // 1. 开始捕获
    musaStreamBeginCapture(stream, musaStreamCaptureModeGlobal);
    
    // 2. 提交工作（将被捕获到图中）
    myKernel<<<4, 256, 0, stream>>>(d_data, 1024);
    
    // 3. 结束捕获，获取图
    musaGraph_t graph;
    musaStreamEndCapture(stream, &graph);
    
    // 4. 实例化图
    musaGraphExec_t graphExec;
    musaGraphInstantiate(&graphExec, graph, 0);
    
    // 5. 执行图（可重复执行）
    musaGraphLaunch(graphExec, stream);
    musaStreamSynchronize(stream);
    
    // Self-check added for the examples: the captured kernel doubled the data once per launch.
    float h[4] = {0};
    musaMemcpy(h, d_data, sizeof h, musaMemcpyDeviceToHost);
    printf("graph quick start: data[3] = %f\n", h[3]);
    
    // 6. 清理
    musaGraphExecDestroy(graphExec);
    musaGraphDestroy(graph);
    musaStreamDestroy(stream);
    musaFree(d_data);
    
    return 0;
}
