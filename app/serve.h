// `fuselab --serve`: a fork server for test harnesses. Every fuselab process spends most of a
// second in the dynamic linker before main (LibTorch pulls in hundreds of shared libraries); the
// server pays that once and forks a child per request, which runs what `fuselab ARGV...` runs.
// No Qt in here.
#pragma once

namespace fl::app {

// What a fresh `fuselab` process runs from main: argv[0] is the program, the rest its arguments.
using MainFunction = int (*)(int argc, char** argv);

// Reads one request per line on stdin, a JSON object:
//   {"argv": ["run", "model.py"], "cwd": "/repo", "env": {"NAME": "value", ...}, "timeout": 120}
// argv: the arguments after the program name; cwd: the child's working directory (default: the
// server's); env: the child's whole environment (default: the server's); timeout: seconds, after
// which the child's process group is killed (0 or absent: none).
// Per request it forks a child that sets up as a fresh process would (own process group, stdin
// from /dev/null, stdout and stderr into files of their own, the environment and working
// directory of the request) and exits with runMain's result. Writes one JSON line per request:
//   {"exit": N} or {"signal": N}, "timed_out": bool, "stdout": base64, "stderr": base64
// ({"error": "..."} when the request could not be run). Returns at the end of stdin.
// Nothing here starts a thread: the server stays single-threaded, so a forked child is sound.
// warm (may be null) runs once before the first request: whatever it caches, every child inherits.
int serve(const char* program, MainFunction runMain, void (*warm)());

// Ends the process with `code` once stdout and stderr (C and C++ streams) are flushed, without
// running static destructors: LibTorch's deregister every operator one by one (0.1-0.2 s of a
// short run; in a child of the server each free also copies a page shared with the server).
// Every file a run writes is closed before its main function returns. Builds with
// AddressSanitizer exit normally, so that LeakSanitizer still checks at exit.
[[noreturn]] void exitProcess(int code);

} // namespace fl::app
