// A body of code that runs on a stack of its own and can stop part-way and be continued later:
// what the interpreter's generators run on. One thread only; a coroutine may resume another.
//
//   Coroutine co([](Coroutine& self) { ...; self.suspend(); ...; });
//   co.resume();  // runs the body up to its first suspend(): true while it has not finished
//
// An exception that leaves the body is kept and rethrown by the resume() that ran it. A coroutine
// destroyed while suspended is unwound first: its suspend() throws Coroutine::Kill, which only the
// body's entry catches, so the C++ destructors on its stack run (and no catch-all may swallow it).
#pragma once

#include <cstddef>
#include <exception>
#include <functional>

namespace fl::script {

class Coroutine {
public:
    struct Kill {}; // thrown by suspend() to unwind a coroutine that is being destroyed

    using Body = std::function<void(Coroutine&)>;
    explicit Coroutine(Body body, size_t stackBytes = kStackBytes);
    ~Coroutine();
    Coroutine(const Coroutine&) = delete;
    Coroutine& operator=(const Coroutine&) = delete;

    // Runs the body until it suspends (true) or returns (false). Rethrows what escaped the body.
    // Throws std::bad_alloc when no stack can be mapped for it.
    bool resume();
    // Inside the body: back to the caller of resume(). Throws Kill when the coroutine is destroyed.
    void suspend();

    bool started() const { return started_; }
    bool finished() const { return finished_; }
    bool running() const { return running_; }
    // Leaves the body's stack as it is when destroyed (the objects on it are never freed): for a
    // coroutine whose owner is gone, so that unwinding it would touch freed state.
    void abandon() { abandoned_ = true; }

    // Bytes of stack left below the current frame, on a coroutine's stack or (outside any) on the
    // thread's; SIZE_MAX where unknown. Deep recursion checks this before it overflows.
    static size_t stackLeft();
    static bool onCoroutineStack();
    // Runs f to its end on a fresh stack of `bytes` (a segment: deep recursion inside a generator
    // goes on there instead of overflowing its small stack). Rethrows what f throws.
    static void onNewStack(const std::function<void()>& f, size_t bytes = kSegmentBytes);

    // Each coroutine's stack, reserved (it counts against the address-space limit fuselab sets) and
    // touched as it is used. Deep recursion inside a generator ends in RecursionError sooner
    // than on the interpreter thread's 512 MiB; tens of thousands of suspended generators fit.
    static constexpr size_t kStackBytes = size_t(256) << 10;
    static constexpr size_t kSegmentBytes = size_t(16) << 20;

    // Where a coroutine's stack starts (internal: called by the context switch, never by users).
    static void entry(unsigned lo, unsigned hi);

private:
    struct Impl;
    Impl* impl_;
    size_t stackBytes_;
    Body body_;
    std::exception_ptr error_;
    bool started_ = false, finished_ = false, running_ = false, killing_ = false, abandoned_ = false;
};

} // namespace fl::script
