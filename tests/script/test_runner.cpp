// The runner's contract: errors become messages and exit codes, timeouts and Cancel stop a run,
// and output is captured in order. These are the behaviours the CLI and the window rely on.
#include <QtTest>

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <thread>

#include "core/run/runner.h"

using namespace fl::script;
using namespace fl::run;

namespace {
struct Captured {
    std::string out, err;
    RunResult r;
};

Captured run(const std::string& source, double timeout = 0, const fl::CancelToken* cancel = nullptr) {
    Captured c;
    RunConfig cfg;
    cfg.path = "model.py";
    cfg.source = source;
    cfg.haveSource = true;
    cfg.timeoutSeconds = timeout;
    cfg.cancel = cancel;
    cfg.out = [&](const std::string& s) { c.out += s; };
    cfg.err = [&](const std::string& s) { c.err += s; };
    c.r = runScript(cfg);
    return c;
}
} // namespace

class TestRunner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void printsAndExitsZero() {
        auto c = run("x = [1, 2, 3]\nprint(sum(x), len(x), sep='-')\n");
        QCOMPARE(c.r.exitCode, 0);
        QCOMPARE(QString::fromStdString(c.out), QString("6-3\n"));
    }
    void syntaxErrorHasFileLineCaret() {
        auto c = run("x = 1\ny = (2 +\n");
        QCOMPARE(c.r.exitCode, 1);
        QCOMPARE(int(c.r.status), int(RunStatus::SyntaxError));
        QVERIFY(c.err.find("File \"model.py\", line 2") != std::string::npos);
        QVERIFY(c.err.find("^") != std::string::npos);
        QVERIFY(c.err.find("SyntaxError: '(' was never closed") != std::string::npos);
    }
    void runtimeErrorIsAPythonTraceback() {
        auto c = run("def f(a):\n    return a / 0\n\nf(3)\n");
        QCOMPARE(c.r.exitCode, 1);
        QCOMPARE(c.r.errorLine, 2);
        QVERIFY(c.err.find("Traceback (most recent call last):") == 0);
        QVERIFY(c.err.find("  File \"model.py\", line 4, in <module>\n    f(3)\n") != std::string::npos);
        QVERIFY(c.err.find("  File \"model.py\", line 2, in f\n    return a / 0\n") != std::string::npos);
        QVERIFY(c.err.find("ZeroDivisionError: division by zero") != std::string::npos);
    }
    void torchErrorsAreRuntimeErrorsWithoutCppFrames() {
        auto c = run("import torch\ntorch.randn(2, 3) @ torch.randn(4, 5)\n");
        QCOMPARE(c.r.exitCode, 1);
        QVERIFY(c.err.find("RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)") != std::string::npos);
        QVERIFY(c.err.find("c10::") == std::string::npos);
        QVERIFY(c.err.find("Exception raised from") == std::string::npos);
    }
    void timeoutStopsAnEndlessLoop() {
        auto c = run("while True:\n    pass\n", 0.5);
        QCOMPARE(c.r.exitCode, 124);
        QCOMPARE(int(c.r.status), int(RunStatus::Timeout));
        qInfo("a 0.5 s timeout stopped the loop after %.2f s", c.r.seconds); // printed: a loaded machine stretches it
    }
    // One big-int power whose last squarings take minutes: the timeout stops it inside the
    // multiplication (a fuzzing finding: an uninterruptible op ran past the fuzzer's limit). The
    // run ends as Timeout; without the poll it ran on until the multiplication finished.
    void timeoutStopsALongBigIntPower() {
        Captured c = run("x = 3 ** (10 ** 7)\nprint(x % 1000)\n", 1.0);
        QCOMPARE(int(c.r.status), int(RunStatus::Timeout));
        QVERIFY(c.out.empty());
        Captured d = run("print(2 ** 787782 % 1000, (2 ** 100) ** 3 == 2 ** 300)\n");
        QCOMPARE(d.out, std::string("704 True\n"));
    }

    void cancelStopsARun() {
        fl::CancelToken token;
        std::thread t([&] { std::this_thread::sleep_for(std::chrono::milliseconds(200)); token.cancel(); });
        auto c = run("i = 0\nwhile True:\n    i += 1\n", 0, &token);
        t.join();
        QCOMPARE(c.r.exitCode, 130);
        QCOMPARE(int(c.r.status), int(RunStatus::Cancelled));
    }
    void recursionIsARecursionError() {
        auto c = run("def f(n):\n    return f(n + 1)\nf(0)\n");
        QCOMPARE(c.r.exitCode, 1);
        QVERIFY(c.err.find("RecursionError: maximum recursion depth exceeded") != std::string::npos);
    }
    void forbiddenModulesAreClearErrors() {
        // os imports (environment, os.path), but what reaches processes or files is refused
        auto c = run("import os\nos.system('true')\n");
        QCOMPARE(c.r.exitCode, 1);
        QVERIFY(c.err.find("PermissionError: os.system is not available in model scripts") != std::string::npos);
        auto e = run("import subprocess\n");
        QCOMPARE(e.r.exitCode, 1);
        QVERIFY(e.err.find("ModuleNotFoundError: No module named 'subprocess'") != std::string::npos);
        auto d = run("open('/etc/passwd')\n");
        QCOMPARE(d.r.exitCode, 1);
        QVERIFY(d.err.find("'open' is not available in model scripts") != std::string::npos);
    }
    void systemExitCodes() {
        QCOMPARE(run("exit()\n").r.exitCode, 0);
        QCOMPARE(run("raise SystemExit(3)\n").r.exitCode, 3);
        QCOMPARE(run("import torch\nprint('a')\nquit(0)\nprint('b')\n").out, std::string("a\n"));
    }
    void finishedRunsFreeTheirGlobals() {
        // A global tensor referenced from a function's globals must be freed when the run ends:
        // ten runs of a 100 MB script must not keep 1 GB alive.
        auto rssMb = [] {
            std::ifstream f("/proc/self/statm");
            long pages = 0, rss = 0;
            f >> pages >> rss;
            return double(rss) * double(sysconf(_SC_PAGE_SIZE)) / (1 << 20);
        };
        const std::string script =
            "import torch\nbig = torch.ones(25_000_000)\ndef use():\n    return big.sum().item()\n"
            "class Holder:\n    def get(self):\n        return big\nh = Holder()\nprint(use() > 0)\n";
        auto first = run(script);
        QCOMPARE(first.out, std::string("True\n"));
        double base = rssMb();
        for (int i = 0; i < 9; ++i) QCOMPARE(run(script).r.exitCode, 0);
        double grown = rssMb() - base;
        QVERIFY2(grown < 300, qPrintable(QString("resident memory grew by %1 MB over 9 runs").arg(grown)));
    }
    void hugeAllocationsAreErrors() {
        auto c = run("import torch\nx = torch.empty(1 << 40)\n");
        QCOMPARE(c.r.exitCode, 1);
        QVERIFY(c.err.find("RuntimeError") != std::string::npos);
        auto d = run("x = [0] * 10**10\n");
        QCOMPARE(d.r.exitCode, 1);
        QVERIFY(d.err.find("MemoryError") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestRunner)
#include "test_runner.moc"
