/* musa_profiler_api.h - musaProfilerStart and musaProfilerStop: the range of the run the
 * simulator's profile report (MUSA_SIM_REPORT) covers, as a profiling tool's collection range.
 *
 * The report collects from the start of the run unless MUSA_SIM_REPORT_FROM_START=0 (as a
 * profiler's "profile from start: off"); musaProfilerStart turns collection on, and
 * musaProfilerStop turns it off. Each first waits for the work already issued on every device,
 * so the report holds exactly the operations issued while collection was on. Both return
 * musaSuccess once the switch is set (also when no report was asked for, which makes the
 * switch moot); during a stream capture, where waiting for work is not allowed, they change
 * nothing and return musaErrorStreamCaptureUnsupported. */
#ifndef __MUSA_PROFILER_API_H__
#define __MUSA_PROFILER_API_H__

#include "musa_runtime_api.h"

#ifdef __cplusplus
extern "C" {
#endif

musaError_t musaProfilerStart(void);
musaError_t musaProfilerStop(void);

#ifdef __cplusplus
}
#endif

#endif /* __MUSA_PROFILER_API_H__ */
