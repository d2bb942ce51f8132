// fuselab: the explorer window, or with a subcommand the command line.
#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli.h"

#ifdef FUSELAB_HAVE_GUI
#include <QApplication>
#include <QEventLoop>
#include <QFile>
#include <QElapsedTimer>
#include <QThread>
#include <QTimer>

#include "app/main_window.h"
#include "viz/graph_view.h"
#endif

namespace {

bool haveDisplay() {
    auto set = [](const char* v) { const char* s = std::getenv(v); return s && *s; };
    return set("DISPLAY") || set("WAYLAND_DISPLAY") || set("QT_QPA_PLATFORM");
}

#ifdef FUSELAB_HAVE_GUI
// Lets queued work finish: the run's results, graph layouts on their worker threads.
void settle(fl::app::MainWindow& w) {
    QElapsedTimer t;
    t.start();
    auto busy = [&w] { return w.graphsPane()->graphView()->isLayingOut() || w.fusionPane()->graphView()->isLayingOut(); };
    do {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
        if (busy()) QThread::msleep(10);
    } while (busy() && t.elapsed() < 30000);
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
}

int runGui(int argc, char** argv, const std::string& model, const std::string& screenshot, const std::string& paneName) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Fuselab");
    QApplication::setApplicationName("Fuselab");
    fl::app::MainWindow w;
    if (model.empty()) w.openExample(":/models/seed.py");
    else if (!w.openFile(QString::fromStdString(model))) {
        std::cerr << "fuselab: can't open file '" << model << "'\n";
        return 2;
    }
    if (!screenshot.empty()) w.resize(1400, 900);
    w.show();
    if (!screenshot.empty()) {
        // Headless picture of the window after the script ran (docs and tests).
        QEventLoop loop;
        QObject::connect(&w, &fl::app::MainWindow::runFinished, &loop, &QEventLoop::quit);
        w.run();
        loop.exec();
        settle(w);
        QWidget* target = &w;
        if (!paneName.empty()) {
            w.raisePane(QString::fromStdString(paneName));
            settle(w);
            target = w.pane(QString::fromStdString(paneName));
        }
        bool ok = target->grab().save(QString::fromStdString(screenshot));
        if (!ok) std::cerr << "fuselab: could not write " << screenshot << "\n";
        return ok ? 0 : 1;
    }
    QTimer::singleShot(0, &w, [&w] { w.run(); });
    return app.exec();
}
#endif

// A model script may allocate many tensors that are each under the per-object cap. Capping the
// address space at 80% of physical memory (FUSELAB_MAX_MEMORY_MB overrides) turns exhaustion into
// a clean RuntimeError/MemoryError instead of a visit from the OOM killer.
void limitAddressSpace() {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || size <= 0) return;
    rlim_t limit = rlim_t(double(pages) * double(size) * 0.8);
    if (const char* env = std::getenv("FUSELAB_MAX_MEMORY_MB")) limit = rlim_t(std::strtoull(env, nullptr, 10)) << 20;
    limit += rlim_t(2) << 30; // head room for the 512 MiB interpreter stack and library mappings
    struct rlimit cur;
    if (getrlimit(RLIMIT_AS, &cur) == 0 && (cur.rlim_max == RLIM_INFINITY || cur.rlim_max > limit)) {
        struct rlimit lim{limit, cur.rlim_max};
        setrlimit(RLIMIT_AS, &lim);
    }
}

} // namespace

int main(int argc, char** argv) {
    limitAddressSpace();
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && fl::app::isSubcommand(args[0])) return fl::app::runCli(args);
    std::string model, screenshot, pane;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--version") { std::cout << "fuselab 0.1.0\n"; return 0; }
        if (a == "-h" || a == "--help") { std::cout << fl::app::usage(); return 0; }
        if (a == "--screenshot" && i + 1 < args.size()) { screenshot = args[++i]; continue; }
        if (a == "--pane" && i + 1 < args.size()) {
            pane = args[++i];
#ifdef FUSELAB_HAVE_GUI
            if (!fl::app::MainWindow::paneNames().contains(QString::fromStdString(pane))) {
                std::cerr << "fuselab: --pane takes one of " << fl::app::MainWindow::paneNames().join(", ").toStdString() << "\n";
                return 2;
            }
#endif
            continue;
        }
        if (!a.empty() && a[0] == '-') { std::cerr << "fuselab: unknown option " << a << "\n" << fl::app::usage(); return 2; }
        model = a;
    }
#ifdef FUSELAB_HAVE_GUI
    if (!pane.empty() && screenshot.empty()) { std::cerr << "fuselab: --pane goes with --screenshot\n"; return 2; }
    // A screenshot needs no display: without one, Qt draws offscreen.
    if (!screenshot.empty() && !haveDisplay()) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    if (haveDisplay() || !screenshot.empty()) return runGui(argc, argv, model, screenshot, pane);
#endif
    if (model.empty()) model = FUSELAB_DEFAULT_MODEL;
    return fl::app::runHeadlessReport(model);
}
