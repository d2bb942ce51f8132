// fuselab: the explorer window, or with a subcommand the command line.
#include <execinfo.h>
#include <malloc.h>
#include <signal.h>
#include <ucontext.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <atomic>
#include <memory>
#include <cstring>
#include <ctime>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli.h"
#include "app/serve.h"
#include "core/runtime/blas.h"
#include "core/jit/jit.h"
#include "core/script/torch_api.h"

#ifdef FUSELAB_HAVE_GUI
#include <QApplication>
#include <QEventLoop>
#include <QFile>
#include <QElapsedTimer>
#include <QSemaphore>
#include <QThread>
#include <QTimer>

#include "app/main_window.h"
#include "viz/graph_view.h"
#endif

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true; // g++
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true; // clang
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// Seconds since this process started (the kernel's start time, 10 ms resolution).
double secondsSinceProcessStart() {
    FILE* f = std::fopen("/proc/self/stat", "r");
    if (!f) return -1;
    char buf[2048];
    size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[n] = 0;
    const char* p = std::strrchr(buf, ')'); // the command name may hold spaces
    if (!p) return -1;
    unsigned long long start = 0;
    int field = 2;
    for (const char* q = p + 1; *q && field < 22; ++q)
        if (*q == ' ' && ++field == 22) start = std::strtoull(q + 1, nullptr, 10);
    struct timespec now;
    clock_gettime(CLOCK_BOOTTIME, &now);
    return double(now.tv_sec) + double(now.tv_nsec) * 1e-9 - double(start) / double(sysconf(_SC_CLK_TCK));
}

bool haveDisplay() {
    auto set = [](const char* v) { const char* s = std::getenv(v); return s && *s; };
    return set("DISPLAY") || set("WAYLAND_DISPLAY") || set("QT_QPA_PLATFORM");
}

// What a screenshot shows besides the run: a script line picked (its nodes, their details and
// kernel), a filter of the fusion decisions ("rejected", "involving" the picked node).
struct ShotPicks {
    int line = 0;
    std::string fusionFilter;
    std::string graph;      // captured | training | backward | joint: the Graphs pane's graph of the first training entry
    int partitionStep = -1; // the partition stepper's step (-1: the last)
    bool whileCompiling = false; // the picture while the first graph's kernels compile (held there)
};

#ifdef FUSELAB_HAVE_GUI
// Lets queued work finish: the run's results, graph layouts on their worker threads.
void settle(fl::app::MainWindow& w) {
    QElapsedTimer t;
    t.start();
    auto busy = [&w] {
        return w.graphsPane()->graphView()->isLayingOut() || w.fusionPane()->graphView()->isLayingOut() || w.partitionPane()->graphView()->isLayingOut();
    };
    do {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
        if (busy()) QThread::msleep(10);
    } while (busy() && t.elapsed() < 30000);
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
}

int runGui(int argc, char** argv, const std::string& model, const std::string& screenshot, const std::string& paneName,
           const std::string& raise, bool startupTime, const ShotPicks& picks) {
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
        // Headless picture of the window after the script ran (docs and tests), or while the
        // first graph's kernels compile (the compile held until the picture is taken).
        QEventLoop loop;
        bool finished = false;
        QObject::connect(&w, &fl::app::MainWindow::runFinished, &loop, [&] { finished = true; loop.quit(); });
        auto gate = std::make_shared<QSemaphore>();
        auto held = std::make_shared<std::atomic<bool>>(false), open = std::make_shared<std::atomic<bool>>(false);
        if (picks.whileCompiling)
            w.setBeforeCompile([gate, held, open] {
                if (*open) return;
                *held = true;
                gate->tryAcquire(1, 300000);
            });
        w.run();
        if (picks.whileCompiling) {
            while (!*held && !finished) {
                QApplication::processEvents(QEventLoop::AllEvents, 20);
                QThread::msleep(5);
            }
            QElapsedTimer t; // the panes take what capture handed over, one per turn
            for (t.start(); t.elapsed() < 500;) QApplication::processEvents(QEventLoop::AllEvents, 20), QThread::msleep(5);
        } else {
            loop.exec();
        }
        settle(w);
        if (!picks.graph.empty() && !picks.whileCompiling) {
            // the first entry with compiled training, drawn as its training graph
            const fl::inspect::Snapshot* snap = w.snapshot();
            for (size_t i = 0; snap && i < snap->entries.size(); ++i)
                if (snap->entries[i].training) { w.graphsPane()->selectEntry(int(i)); break; }
            const QStringList kinds = {"captured", "training", "backward", "joint"};
            w.graphsPane()->setGraphKind(fl::viz::GraphKind(std::max(0, int(kinds.indexOf(QString::fromStdString(picks.graph))))));
            settle(w);
            // the backward: the details of its first saved value that the forward computed (not an input)
            const fl::inspect::SnapEntry* shown = w.graphsPane()->shownGraph();
            const fl::inspect::SnapEntry* captured = w.graphsPane()->currentEntry() >= 0 ? &snap->entries[size_t(w.graphsPane()->currentEntry())] : nullptr;
            if (picks.graph == "backward" && shown && captured && captured->training)
                for (size_t i = 0; i < captured->training->savedFrom.size(); ++i) {
                    int from = captured->training->savedFrom[i];
                    if (from < 0 || captured->nodes[size_t(from)].kind == fl::inspect::SnapNode::Kind::Input ||
                        captured->nodes[size_t(from)].kind == fl::inspect::SnapNode::Kind::Parameter)
                        continue;
                    w.graphsPane()->graphView()->selectNodes({int(i)});
                    w.graphsPane()->showNodeDetails(int(i));
                    break;
                }
            settle(w);
        }
        if (picks.partitionStep >= 0) w.partitionPane()->setStep(picks.partitionStep);
        if (picks.line > 0) w.selectLine(picks.line);
        if (picks.fusionFilter == "rejected") w.fusionPane()->setRejectedOnly(true);
        if (picks.fusionFilter == "involving") w.fusionPane()->setInvolvingSelected(true);
        if (!picks.fusionFilter.empty()) w.fusionPane()->last(), w.fusionPane()->previous(); // the last decision the filter shows
        for (const QString& name : QString::fromStdString(raise).split(',', Qt::SkipEmptyParts)) w.raisePane(name);
        settle(w);
        QWidget* target = &w;
        if (!paneName.empty()) {
            QString name = QString::fromStdString(paneName);
            w.raisePane(name);
            if (name != "source") w.floatPane(name, QSize(1200, name == "guards" || name == "output" ? 420 : 720));
            settle(w);
            if (name == "partition") w.partitionPane()->graphView()->fit(), settle(w); // laid out while docked: fill the floating pane
            target = w.pane(QString::fromStdString(paneName));
        }
        bool ok = target->grab().save(QString::fromStdString(screenshot));
        if (!ok) std::cerr << "fuselab: could not write " << screenshot << "\n";
        if (picks.whileCompiling) { // let the run finish
            *open = true;
            gate->release(1000);
            if (!finished) loop.exec();
        }
        return ok ? 0 : 1;
    }
    if (startupTime) {
        // `fuselab --startup-time`: the window with the default example painted, then exit.
        QApplication::processEvents();
        w.grab();
        std::printf("window shown with %s %.0f ms after the process started\n", model.empty() ? "the default example" : model.c_str(),
                    secondsSinceProcessStart() * 1000.0);
        return 0;
    }
    QTimer::singleShot(0, &w, [&w] { w.run(); });
    return app.exec();
}
#endif

// A model script may allocate many tensors that are each under the per-object cap. Capping the
// address space at 80% of physical memory (FUSELAB_MAX_MEMORY_MB overrides) turns exhaustion into
// a clean RuntimeError/MemoryError instead of a visit from the OOM killer.
void limitAddressSpace() {
    // AddressSanitizer reserves terabytes of shadow address space at start-up: any RLIMIT_AS
    // would make every later mapping fail. Its allocator limits memory instead (tools/sanitize.sh).
    if (kAddressSanitizer) return;
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

// FUSELAB_CRASH_TRACE=1: a fatal signal prints the raw call stack (for developers; users never
// see our stack otherwise).
void installCrashTrace() {
    const char* on = std::getenv("FUSELAB_CRASH_TRACE");
    if (!on || !*on || std::strcmp(on, "0") == 0) return;
    struct sigaction sa {};
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sa.sa_sigaction = [](int sig, siginfo_t* info, void* ctx) {
        char line[160];
        int len = std::snprintf(line, sizeof line, "fuselab: fatal signal %d at address %p; call stack:\n", sig, info->si_addr);
        if (write(2, line, size_t(len)) < 0) {}
#if defined(__x86_64__)
        // A call through a null pointer leaves no frame to unwind: the caller is the return
        // address on top of the stack.
        auto* uc = static_cast<ucontext_t*>(ctx);
        void** sp = reinterpret_cast<void**>(uc->uc_mcontext.gregs[REG_RSP]);
        void* pc = reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RIP]);
        void* ret[2] = {pc, sp ? sp[0] : nullptr};
        backtrace_symbols_fd(ret, 2, 2);
#endif
        void* frames[64];
        backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
        raise(sig);
    };
    for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE}) sigaction(sig, &sa, nullptr);
}

// glibc returns freed memory at the top of a heap to the kernel (past 128 KiB) and gives blocks
// from 128 KiB up (a threshold that moves) their own mapping, unmapped when freed: a model's
// tensors, allocated and freed on every call, then come back as fresh pages, each a page fault on
// its first write. A compiled CNN training step (small_cnn's model, batch 32) took 400 page
// faults per step. Memory is kept for reuse up to 32 MiB per block (glibc's largest threshold)
// and 256 MiB at a heap's top, as allocators made for training (jemalloc, tcmalloc) keep it;
// larger blocks are still mapped and unmapped.
static void keepFreedMemory() {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

// Everything a `fuselab ARGS...` process does: main, and each child of `fuselab --serve`.
static int runFuselab(int argc, char** argv) {
    keepFreedMemory();
    limitAddressSpace();
    installCrashTrace();
    fl::runtime::preferNativeBlasKernels(); // before any matmul: see blas.h
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && fl::app::isSubcommand(args[0])) return fl::app::runCli(args);
    std::string model, screenshot, pane, raise;
    ShotPicks picks;
    bool startupTime = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--version") {
            // the BLAS line lets the oracle run PyTorch on the kernels fuselab's eager ops use
            std::string blas = fl::runtime::blasCore();
            std::cout << "fuselab 0.1.0\nblas: " << (blas.empty() ? "not OpenBLAS" : blas) << "\n";
            return 0;
        }
        if (a == "-h" || a == "--help") { std::cout << fl::app::usage(); return 0; }
        if (a == "--screenshot" && i + 1 < args.size()) { screenshot = args[++i]; continue; }
        if (a == "--startup-time") { startupTime = true; continue; }
        if (a == "--select" && i + 1 < args.size()) { picks.line = std::atoi(args[++i].c_str()); continue; }
        if (a == "--fusion-filter" && i + 1 < args.size()) {
            picks.fusionFilter = args[++i];
            if (picks.fusionFilter != "rejected" && picks.fusionFilter != "involving") {
                std::cerr << "fuselab: --fusion-filter takes rejected or involving\n";
                return 2;
            }
            continue;
        }
        if (a == "--graph" && i + 1 < args.size()) {
            picks.graph = args[++i];
            if (picks.graph != "captured" && picks.graph != "training" && picks.graph != "backward" && picks.graph != "joint") {
                std::cerr << "fuselab: --graph takes captured, training, backward or joint\n";
                return 2;
            }
            continue;
        }
        if (a == "--partition-step" && i + 1 < args.size()) { picks.partitionStep = std::atoi(args[++i].c_str()); continue; }
        if (a == "--while-compiling") { picks.whileCompiling = true; continue; }
        if ((a == "--pane" || a == "--raise") && i + 1 < args.size()) {
            std::string v = args[++i];
#ifdef FUSELAB_HAVE_GUI
            for (const QString& name : QString::fromStdString(v).split(',', Qt::SkipEmptyParts))
                if (!fl::app::MainWindow::paneNames().contains(name)) {
                    std::cerr << "fuselab: " << a << " takes " << (a == "--pane" ? "one" : "some") << " of "
                              << fl::app::MainWindow::paneNames().join(", ").toStdString() << "\n";
                    return 2;
                }
#endif
            (a == "--pane" ? pane : raise) = v;
            continue;
        }
        if (!a.empty() && a[0] == '-') { std::cerr << "fuselab: unknown option " << a << "\n" << fl::app::usage(); return 2; }
        model = a;
    }
#ifdef FUSELAB_HAVE_GUI
    if ((!pane.empty() || !raise.empty() || picks.line || !picks.fusionFilter.empty() || !picks.graph.empty() || picks.partitionStep >= 0 ||
         picks.whileCompiling) &&
        screenshot.empty()) {
        std::cerr << "fuselab: --pane, --raise, --select, --fusion-filter, --graph, --partition-step and --while-compiling go with --screenshot\n";
        return 2;
    }
    // A screenshot needs no display: without one, Qt draws offscreen.
    if ((!screenshot.empty() || startupTime) && !haveDisplay()) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    if (haveDisplay() || !screenshot.empty() || startupTime) return runGui(argc, argv, model, screenshot, pane, raise, startupTime, picks);
#endif
    if (model.empty()) model = FUSELAB_DEFAULT_MODEL;
    return fl::app::runHeadlessReport(model);
}

// What every child of `fuselab --serve` would otherwise build for itself: the parsed prelude and
// standard modules, the operator registry's index, the loaded llvm plugin (each child that
// compiles would pay its ~0.15 s dlopen).
static void warmServer() {
    fl::script::warmProcessCaches();
    fl::jit::Jit::instance().preloadPlugin();
}

int main(int argc, char** argv) {
    // Hidden, for test harnesses (tests/harness.py): forks a child per request that runs
    // runFuselab, so that the dynamic linker's ~0.8 s is paid once per server (app/serve.h).
    if (argc == 2 && std::strcmp(argv[1], "--serve") == 0) return fl::app::serve(argv[0], runFuselab, warmServer);
    fl::app::exitProcess(runFuselab(argc, argv));
}
