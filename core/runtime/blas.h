// The BLAS under LibTorch's matmuls (both the eager ones and the compiled graphs' library calls).
#pragma once

#include <string>

namespace fl::runtime {

// OpenBLAS's name for the kernels it runs ("SkylakeX", "Haswell", "Prescott", ...), "OpenBLAS"
// when it does not say, or "" when the process has no OpenBLAS.
std::string blasCore();

// Debian 12's OpenBLAS 0.3.21 picks its kernels from the CPU model when it loads, and does not know
// Intel CPUs newer than Sapphire Rapids: on an Emerald Rapids Xeon (family 6, model 207) it falls
// back to its Prescott (SSE3) kernels, and a 1024^3 sgemm on two threads runs at 63 GFLOP/s
// instead of 211 with its SkylakeX (AVX-512) ones (2026-12-04, this project's 2-core machine).
// Newer OpenBLAS releases fall back to SkylakeX on such CPUs themselves. Where the process's
// OpenBLAS chose Prescott on a CPU with the AVX-512 subsets of SkylakeX's kernels, and the user has
// not set OPENBLAS_CORETYPE, this makes OpenBLAS choose again, as with OPENBLAS_CORETYPE=SkylakeX
// (Haswell on a CPU with AVX2 and FMA but not those). Call it before any matmul and before
// starting threads (fuselab's main does).
void preferNativeBlasKernels();
// What preferNativeBlasKernels did, for reports: "" when it changed nothing.
const std::string& blasChoiceNote();

} // namespace fl::runtime
