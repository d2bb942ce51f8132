// Cooperative cancellation shared by long-running work (a script run, a compile).
// The interpreter polls it at loop back-edges and calls; a watchdog or the UI sets it.
#pragma once

#include <atomic>

namespace fl {

class CancelToken {
public:
    void cancel() { flag_.store(true, std::memory_order_relaxed); }
    bool cancelled() const { return flag_.load(std::memory_order_relaxed); }
    void reset() { flag_.store(false, std::memory_order_relaxed); }

private:
    std::atomic<bool> flag_{false};
};

} // namespace fl
