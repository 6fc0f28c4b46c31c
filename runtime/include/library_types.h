/* library_types.h - the data types and library properties the math libraries take
 * (musaDataType_t for mublasGemmEx and its kind; CUDA's library_types.h under MUSA's names). */
#ifndef MUSA_SIM_LIBRARY_TYPES_H_
#define MUSA_SIM_LIBRARY_TYPES_H_

typedef enum musaDataType_t {
  MUSA_R_16F = 2,
  MUSA_C_16F = 6,
  MUSA_R_16BF = 14,
  MUSA_C_16BF = 15,
  MUSA_R_32F = 0,
  MUSA_C_32F = 4,
  MUSA_R_64F = 1,
  MUSA_C_64F = 5,
  MUSA_R_4I = 16,
  MUSA_C_4I = 17,
  MUSA_R_4U = 18,
  MUSA_C_4U = 19,
  MUSA_R_8I = 3,
  MUSA_C_8I = 7,
  MUSA_R_8U = 8,
  MUSA_C_8U = 9,
  MUSA_R_16I = 20,
  MUSA_C_16I = 21,
  MUSA_R_16U = 22,
  MUSA_C_16U = 23,
  MUSA_R_32I = 10,
  MUSA_C_32I = 11,
  MUSA_R_32U = 12,
  MUSA_C_32U = 13,
  MUSA_R_64I = 24,
  MUSA_C_64I = 25,
  MUSA_R_64U = 26,
  MUSA_C_64U = 27,
  MUSA_R_8F_E4M3 = 28,
  MUSA_R_8F_E5M2 = 29
} musaDataType;
typedef enum musaDataType_t musaDataType_t;

typedef enum libraryPropertyType_t {
  MAJOR_VERSION,
  MINOR_VERSION,
  PATCH_LEVEL
} libraryPropertyType;
typedef enum libraryPropertyType_t libraryPropertyType_t;

#endif /* MUSA_SIM_LIBRARY_TYPES_H_ */
