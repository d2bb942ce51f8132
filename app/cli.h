// The command line: `fuselab run | explain | bench | profile | kernels`. No Qt in here, so the
// same subcommands build where Qt is absent (the GPU machine).
#pragma once

#include <string>
#include <vector>

namespace fl::app {

// Runs a subcommand; returns the process exit code. `args` excludes the program name.
int runCli(const std::vector<std::string>& args);
// The headless main job: run a model and print the report (used when no display exists).
int runHeadlessReport(const std::string& path);
bool isSubcommand(const std::string& word);
std::string usage();

} // namespace fl::app
