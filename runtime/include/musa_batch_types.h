/* musa_batch_types.h - the types of the batch calls (musaMemcpyBatchAsync,
 * musaMemcpy3DBatchAsync): copy attributes and 3D operands. Included by musa_driver_types.h,
 * after the memory location and extent types it uses. */
#ifndef __MUSA_BATCH_TYPES_H__
#define __MUSA_BATCH_TYPES_H__

/* ---- batches of copies, prefetches and discards (CUDA 12.8 / 13) ------------------------ */
enum musaMemcpyFlags {
  musaMemcpyFlagDefault = 0x0,
  musaMemcpyFlagPreferOverlapWithCompute = 0x1
};
enum musaMemcpySrcAccessOrder {
  musaMemcpySrcAccessOrderInvalid = 0x0,
  musaMemcpySrcAccessOrderStream = 0x1,
  musaMemcpySrcAccessOrderDuringApiCall = 0x2,
  musaMemcpySrcAccessOrderAny = 0x3,
  musaMemcpySrcAccessOrderMax = 0x7FFFFFFF
};
struct musaMemcpyAttributes {
  enum musaMemcpySrcAccessOrder srcAccessOrder;
  struct musaMemLocation srcLocHint;
  struct musaMemLocation dstLocHint;
  unsigned int flags;
};
enum musaMemcpy3DOperandType {
  musaMemcpyOperandTypePointer = 0x1,
  musaMemcpyOperandTypeArray = 0x2,
  musaMemcpyOperandTypeMax = 0x7FFFFFFF
};
struct musaOffset3D {
  size_t x;
  size_t y;
  size_t z;
};
struct musaMemcpy3DOperand {
  enum musaMemcpy3DOperandType type;
  union {
    struct {
      void *ptr;
      size_t rowLength;   /* elements; 0: the copy's width */
      size_t layerHeight; /* elements; 0: the copy's height */
      struct musaMemLocation locHint;
    } ptr;
    struct {
      musaArray_t array;
      struct musaOffset3D offset;
    } array;
  } op;
};
struct musaMemcpy3DBatchOp {
  struct musaMemcpy3DOperand src;
  struct musaMemcpy3DOperand dst;
  struct musaExtent extent;
  enum musaMemcpySrcAccessOrder srcAccessOrder;
  unsigned int flags;
};

#endif /* __MUSA_BATCH_TYPES_H__ */
