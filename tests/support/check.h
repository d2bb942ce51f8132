// The pass/fail counter of the small C++ tests: check(ok, what) counts, and prints what failed.
// One test executable per translation unit, so the counters are the file's own.
#pragma once

#include <cstdio>
#include <string>

static int passed = 0, failed = 0;
static void check(bool ok, const std::string& what) {
    if (ok) ++passed;
    else {
        ++failed;
        std::printf("FAIL %s\n", what.c_str());
    }
}
