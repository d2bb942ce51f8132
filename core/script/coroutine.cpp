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

#if defined(__x86_64__)
// The switch itself, for x86-64 (System V): the callee-saved registers, the SSE and x87 control
// words and the stack pointer, nothing else. swapcontext also saves the signal mask, a system
// call each way, which made a generator's step cost about 2 microseconds.
extern "C" void fl_coro_switch(void** saveSp, void* loadSp);
extern "C" void fl_coro_trampoline();
asm(R"(
    .text
    .globl fl_coro_switch
    .type fl_coro_switch, @function
fl_coro_switch:
    .cfi_startproc
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .cfi_endproc
    .size fl_coro_switch, .-fl_coro_switch

    .globl fl_coro_trampoline
    .type fl_coro_trampoline, @function
fl_coro_trampoline:
    .cfi_startproc
    .cfi_undefined rip
    movq %r12, %rdi
    callq *%r13
    ud2
    .cfi_endproc
    .size fl_coro_trampoline, .-fl_coro_trampoline
)");
#define FL_CORO_ASM 1
#endif

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
#ifdef FL_CORO_ASM
    void* selfSp = nullptr;   // where each side's registers were pushed when it was left
    void* callerSp = nullptr;
#else
    ucontext_t self{}, caller{};
#endif
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

#ifdef FL_CORO_ASM
extern "C" [[noreturn]] void fl_coro_entry(void* co) {
    uintptr_t p = reinterpret_cast<uintptr_t>(co);
    Coroutine::entry(unsigned(p & 0xffffffffu), unsigned(p >> 32));
    __builtin_trap(); // entry switches away for good
}
#endif

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
#ifdef FL_CORO_ASM
    void* dead = nullptr;
    fl_coro_switch(&dead, co->impl_->callerSp);
#else
    setcontext(&co->impl_->caller);
#endif
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
#ifdef FL_CORO_ASM
        // the frame fl_coro_switch pops on the first switch: control words, r15..rbp, and the
        // return address (the trampoline, which calls fl_coro_entry(this) from r12/r13)
        auto top = reinterpret_cast<uintptr_t>(m.low + stackBytes_) & ~uintptr_t(15);
        auto* sp = reinterpret_cast<uint64_t*>(top - 80);
        uint32_t mxcsr;
        uint16_t fcw;
        asm volatile("stmxcsr %0" : "=m"(mxcsr));
        asm volatile("fnstcw %0" : "=m"(fcw));
        sp[0] = uint64_t(mxcsr) | (uint64_t(fcw) << 32);
        sp[1] = 0;                                                // r15
        sp[2] = 0;                                                // r14
        sp[3] = reinterpret_cast<uint64_t>(&fl_coro_entry);       // r13
        sp[4] = reinterpret_cast<uint64_t>(this);                 // r12
        sp[5] = 0;                                                // rbx
        sp[6] = 0;                                                // rbp
        sp[7] = reinterpret_cast<uint64_t>(&fl_coro_trampoline); // return address
        m.selfSp = sp;
#else
        getcontext(&m.self);
        m.self.uc_stack.ss_sp = m.map + page;
        m.self.uc_stack.ss_size = stackBytes_;
        m.self.uc_link = nullptr;
        uintptr_t me = reinterpret_cast<uintptr_t>(this);
        makecontext(&m.self, reinterpret_cast<void (*)()>(&Coroutine::entry), 2, unsigned(me & 0xffffffffu), unsigned(me >> 32));
#endif
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
#ifdef FL_CORO_ASM
    fl_coro_switch(&m.callerSp, m.selfSp);
#else
    swapcontext(&m.caller, &m.self);
#endif
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
#ifdef FL_CORO_ASM
    fl_coro_switch(&m.selfSp, m.callerSp);
#else
    swapcontext(&m.self, &m.caller);
#endif
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
