/* musa.h - MUSA programs that include <musa.h> get the runtime API. */
#ifndef __MUSA_H__
#define __MUSA_H__
#include "musa_runtime.h"
#endif
