// An event-loop latency probe for GUI tests: a 10 ms timer on the UI thread records the largest
// gap between its ticks, i.e. the longest the UI thread was kept from its event loop.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <algorithm>

struct LatencyProbe {
    QTimer timer;
    QElapsedTimer clock;
    qint64 last = 0, worst = 0;
    LatencyProbe() {
        timer.setInterval(10);
        QObject::connect(&timer, &QTimer::timeout, [this] {
            const qint64 now = clock.elapsed();
            worst = std::max(worst, now - last);
            last = now;
        });
        clock.start();
        timer.start();
    }
};
