#include "core/script/coroutine.h"

#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <new>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define FL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FL_ASAN 1
#endif
#endif
#ifdef FL_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

// The C++ runtime's per-thread exception state (the exceptions being handled, the count of
// uncaught ones): the Itanium ABI's __cxa_eh_globals. Each coroutine keeps its own, as each thread
// does, so that one suspended inside a catch block cannot pop the handler of another.
namespace __cxxabiv1 {
struct __cxa_eh_globals;
extern "C" __cxa_eh_globals* __cxa_get_globals() noexcept;
} // namespace __cxxabiv1

namespace fl::script {

namespace {

struct EhGlobals {
    void* caughtExceptions = nullptr;
    unsigned int uncaughtExceptions = 0;
};

EhGlobals& ehGlobals() { return *reinterpret_cast<EhGlobals*>(__cxxabiv1::__cxa_get_globals()); }

// The stack the current code runs on, while it is a coroutine's (null: the thread's own).
thread_local const char* tlStackLow = nullptr;

size_t pageSize() {
    static const size_t p = size_t(sysconf(_SC_PAGESIZE));
    return p;
}

// Stacks of finished coroutines, kept for the next ones (a generator expression in a loop would
// otherwise map and unmap one per iteration).
struct StackPool {
    std::vector<char*> free;
    ~StackPool() {
        for (char* p : free) munmap(p, Coroutine::kStackBytes + pageSize());
    }
};
thread_local StackPool tlPool;

char* takeStack(size_t stackBytes) {
    if (stackBytes != Coroutine::kStackBytes) {
        void* p = mmap(nullptr, stackBytes + pageSize(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        if (p == MAP_FAILED) return nullptr;
        mprotect(p, pageSize(), PROT_NONE);
        return static_cast<char*>(p);
    }
    if (!tlPool.free.empty()) {
        char* p = tlPool.free.back();
        tlPool.free.pop_back();
        return p;
    }
    size_t bytes = Coroutine::kStackBytes + pageSize();
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    mprotect(p, pageSize(), PROT_NONE); // overflow faults instead of writing over other memory
    return static_cast<char*>(p);
}

void giveStack(char* p, size_t stackBytes) {
    if (stackBytes != Coroutine::kStackBytes) munmap(p, stackBytes + pageSize());
    else if (tlPool.free.size() < 16) tlPool.free.push_back(p);
    else munmap(p, Coroutine::kStackBytes + pageSize());
}

// The lowest usable address of the calling thread's own stack, found once per thread.
const char* threadStackLow() {
    thread_local const char* low = nullptr;
    thread_local bool known = false;
    if (!known) {
        known = true;
        pthread_attr_t attr;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            void* addr = nullptr;
            size_t size = 0;
            if (pthread_attr_getstack(&attr, &addr, &size) == 0) low = static_cast<const char*>(addr);
            pthread_attr_destroy(&attr);
        }
    }
    return low;
}

} // namespace

struct Coroutine::Impl {
    ucontext_t self{}, caller{};
    char* map = nullptr;      // guard page + stack
    size_t mapBytes = 0;
    const char* low = nullptr; // first usable byte (above the guard page)
    const char* savedLow = nullptr; // the resumer's stack bound, restored on the way back
    EhGlobals ownEh, callerEh;      // the exception state of each side while the other runs
#ifdef FL_ASAN
    const void* callerBottom = nullptr;
    size_t callerSize = 0;
#endif
};

Coroutine::Coroutine(Body body, size_t stackBytes) : impl_(new Impl), stackBytes_(stackBytes), body_(std::move(body)) {}

Coroutine::~Coroutine() {
    if (started_ && !finished_ && !running_ && !abandoned_) {
        killing_ = true;
        try {
            resume();
        } catch (...) {
        }
    }
    if (impl_->map && !abandoned_) giveStack(impl_->map, stackBytes_);
    else if (impl_->map) munmap(impl_->map, impl_->mapBytes);
    delete impl_;
}

void Coroutine::entry(unsigned lo, unsigned hi) {
    auto* co = reinterpret_cast<Coroutine*>((uintptr_t(hi) << 32) | uintptr_t(lo));
#ifdef FL_ASAN
    __sanitizer_finish_switch_fiber(nullptr, &co->impl_->callerBottom, &co->impl_->callerSize);
#endif
    try {
        if (!co->killing_) co->body_(*co);
    } catch (const Kill&) {
    } catch (...) {
        co->error_ = std::current_exception();
    }
    co->finished_ = true;
#ifdef FL_ASAN
    __sanitizer_start_switch_fiber(nullptr, co->impl_->callerBottom, co->impl_->callerSize);
#endif
    setcontext(&co->impl_->caller);
}

bool Coroutine::resume() {
    if (finished_ || running_) return false;
    Impl& m = *impl_;
    if (!started_) {
        size_t page = pageSize();
        m.mapBytes = stackBytes_ + page;
        m.map = takeStack(stackBytes_);
        if (!m.map) throw std::bad_alloc();
        m.low = m.map + page;
        getcontext(&m.self);
        m.self.uc_stack.ss_sp = m.map + page;
        m.self.uc_stack.ss_size = stackBytes_;
        m.self.uc_link = nullptr;
        uintptr_t me = reinterpret_cast<uintptr_t>(this);
        makecontext(&m.self, reinterpret_cast<void (*)()>(&Coroutine::entry), 2, unsigned(me & 0xffffffffu), unsigned(me >> 32));
        started_ = true;
    }
    running_ = true;
    m.savedLow = tlStackLow;
    tlStackLow = m.low;
#ifdef FL_ASAN
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, m.low, stackBytes_);
#endif
    m.callerEh = ehGlobals();
    ehGlobals() = m.ownEh;
    swapcontext(&m.caller, &m.self);
    m.ownEh = ehGlobals();
    ehGlobals() = m.callerEh;
#ifdef FL_ASAN
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
    tlStackLow = m.savedLow;
    running_ = false;
    if (finished_ && m.map) { // its stack is free for the next coroutine
        giveStack(m.map, stackBytes_);
        m.map = nullptr;
    }
    if (finished_ && error_) {
        std::exception_ptr e = error_;
        error_ = nullptr;
        std::rethrow_exception(e);
    }
    return !finished_;
}

void Coroutine::suspend() {
    Impl& m = *impl_;
#ifdef FL_ASAN
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, m.callerBottom, m.callerSize);
#endif
    swapcontext(&m.self, &m.caller);
#ifdef FL_ASAN
    __sanitizer_finish_switch_fiber(fake, &m.callerBottom, &m.callerSize);
#endif
    if (killing_) throw Kill{};
}

bool Coroutine::onCoroutineStack() { return tlStackLow != nullptr; }

void Coroutine::onNewStack(const std::function<void()>& f, size_t bytes) {
    Coroutine seg([&f](Coroutine&) { f(); }, bytes);
    seg.resume(); // f never suspends: it runs to its end (or its exception comes out here)
}

size_t Coroutine::stackLeft() {
    const char* low = tlStackLow ? tlStackLow : threadStackLow();
    if (!low) return SIZE_MAX;
    const char* here = static_cast<const char*>(__builtin_frame_address(0));
    return here > low ? size_t(here - low) : 0;
}

} // namespace fl::script
