// libFuzzer target: bytes -> parse and run as a model script (torch.compile runs eagerly), with a
// 1 s time limit and a 32 MiB cap per object. The interpreter's sandbox keeps files, processes and
// the network out of reach of the script.
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fl::fuzz::runInput(data, size, /*compile=*/false);
    return 0;
}
