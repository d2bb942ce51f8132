// The Timing pane on the offscreen platform, fed by a real profile: the graph-break example run
// through runScript with profiler::prepare / collect, as the window does.
#include <algorithm>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "core/run/runner.h"
#include "profiler/profile.h"
#include "viz/timing_view.h"

using namespace fl;

class TestTimingView : public QObject {
    Q_OBJECT
    profiler::Profile prof;

private Q_SLOTS:
    void initTestCase() {
        run::RunConfig cfg;
        cfg.path = "resources/models/graph_break.py";
        cfg.out = [](const std::string&) {};
        cfg.beforeRun = [](script::Interp& in) { profiler::prepare(in); };
        profiler::CollectOptions co;
        co.budgetSeconds = 1;
        co.minSeconds = 0.05;
        cfg.afterRun = [&](script::Interp& in) { prof = profiler::collect(in, co); };
        run::RunResult r = run::runScript(cfg);
        QCOMPARE(r.exitCode, 0);
        prof.file = cfg.path;
        QVERIFY(prof.compiles.size() >= 2);
        QVERIFY(!prof.calls.empty());
    }

    void showsTracksTableAndSummary() {
        viz::TimingView v;
        v.resize(1000, 600);
        v.setProfile(prof);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QStringList rows = v.timeline()->trackNames();
        QVERIFY2(rows.contains("script") && rows.contains("compile 0/0") && rows.contains("compile 1/0") && rows.contains("runtime"),
                 qPrintable(rows.join(", ")));
        QCOMPARE(v.kernelTable()->columnCount(), 6);
        QCOMPARE(v.kernelTable()->horizontalHeaderItem(4)->text(), QString("share"));
        QVERIFY(v.kernelTable()->rowCount() >= 2);
        QCOMPARE(v.callChooser()->count(), int(prof.calls.size()));
        QRegularExpression re("first call [0-9.]+ ms \\(compile [0-9.]+ ms\\) vs cached [0-9.]+ ms, eager [0-9.]+ ms: pays off after (never|[0-9]+ calls)");
        QVERIFY2(re.match(v.summaryText()).hasMatch(), qPrintable(v.summaryText()));
        // real pixels: phase colours on the compile rows
        if (qEnvironmentVariableIsSet("FUSELAB_TIMING_PNG")) v.grab().save(qEnvironmentVariable("FUSELAB_TIMING_PNG"));
        QImage img = v.timeline()->grab().toImage();
        QSet<QRgb> colours;
        for (int y = 0; y < img.height(); y += 3)
            for (int x = 0; x < img.width(); x += 3) colours.insert(img.pixel(x, y));
        QVERIFY2(colours.size() > 6, "the timeline painted spans");
    }

    void zoomPanAndHover() {
        viz::TimingView v;
        v.resize(1000, 600);
        v.setProfile(prof);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        viz::Timeline* t = v.timeline();
        double a = t->viewStart(), b = t->viewEnd();
        t->zoom(4, (a + b) / 2);
        QVERIFY(std::abs((t->viewEnd() - t->viewStart()) - (b - a) / 4) < 1e-6 * (b - a));
        double before = t->viewStart();
        QPoint p(t->width() / 2, 10);
        QTest::mousePress(t, Qt::LeftButton, Qt::NoModifier, p);
        QMouseEvent move(QEvent::MouseMove, QPointF(p + QPoint(-200, 0)), t->mapToGlobal(QPointF(p + QPoint(-200, 0))), Qt::NoButton, Qt::LeftButton,
                         Qt::NoModifier);
        QApplication::sendEvent(t, &move);
        QTest::mouseRelease(t, Qt::LeftButton, Qt::NoModifier, p + QPoint(-200, 0));
        QVERIFY2(t->viewStart() > before, "dragging left pans to later times");
        // hover: scan the compile rows for phase details and the graph break's reason
        t->setView(0, 1e12); // wider than the profile: setView clamps to it
        QStringList rows = t->trackNames();
        QString seen;
        for (int r = 0; r < rows.size(); ++r) {
            if (!rows[r].startsWith("compile ")) continue;
            int y = 20 + r * 22 + 11;
            for (int x = 150; x < t->width(); x += 1) seen += t->detailsAt(QPoint(x, y)) + "\n";
        }
        QVERIFY2(seen.contains("graph break") && seen.contains("Data-dependent"), "hovering the break shows its reason");
        // zoomed onto the first phase of 0/0, its middle shows that phase
        const profiler::PhaseTime& ph = prof.compiles[0].phases[0];
        t->setView(ph.startMs, ph.startMs + ph.ms);
        int r0 = int(rows.indexOf("compile 0/0"));
        QString mid = t->detailsAt(QPoint(150 + (t->width() - 154) / 2, 20 + r0 * 22 + 11));
        QVERIFY2(mid.startsWith(QString::fromStdString(ph.name) + "  (compile 0/0)"), qPrintable(mid));
        QVERIFY2(mid.contains("duration"), qPrintable(mid));
    }

    void exportsTrace() {
        viz::TimingView v;
        v.setProfile(prof);
        QTemporaryDir dir;
        QString path = dir.filePath("trace.json");
        QVERIFY(v.exportTrace(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonDocument doc = QJsonDocument::fromJson(f.readAll());
        QVERIFY(doc.isObject());
        QJsonArray ev = doc.object().value("traceEvents").toArray();
        QVERIFY(ev.size() > 10);
        int breaks = 0, threads = 0;
        for (auto e : ev) {
            QJsonObject o = e.toObject();
            if (o.value("ph").toString() == "i" && o.value("name").toString() == "graph break") {
                ++breaks;
                QVERIFY(!o.value("args").toObject().value("reason").toString().isEmpty());
            }
            if (o.value("ph").toString() == "M" && o.value("name").toString() == "thread_name") ++threads;
        }
        QCOMPARE(breaks, 1);
        QVERIFY(threads >= 4);
        QVERIFY(!v.exportTrace(dir.filePath("no/such/dir/trace.json")));
        QVERIFY(v.lastError().contains("cannot write"));
    }

    // Compiled training (mlp_training: a compiled MLP, loss.backward() each step): the backward's
    // compile at the first backward() on a track of its own under its compile id, each backward()
    // on a track under the calls, and the summary's backward time beside the call's.
    void showsBackward() {
        profiler::Profile tp;
        run::RunConfig cfg;
        cfg.path = "resources/models/mlp_training.py";
        cfg.out = [](const std::string&) {};
        cfg.beforeRun = [](script::Interp& in) { profiler::prepare(in); };
        profiler::CollectOptions co;
        co.budgetSeconds = 1;
        co.minSeconds = 0.05;
        cfg.afterRun = [&](script::Interp& in) { tp = profiler::collect(in, co); };
        QCOMPARE(run::runScript(cfg).exitCode, 0);
        QVERIFY(!tp.compiles.empty() && !tp.calls.empty());
        const profiler::CompileProfile& c = tp.compiles[0];
        QVERIFY2(c.backwardCompileMs > 0, "the first backward() compiled the backward graph");
        bool backwardPhase = false;
        for (auto& ph : c.trainingPhases) backwardPhase = backwardPhase || ph.name.rfind("backward ", 0) == 0;
        QVERIFY(backwardPhase);
        const profiler::CallProfile& call = tp.calls[0];
        QVERIFY2(call.training && call.backward == "compiled", call.backward.c_str());
        QVERIFY(call.backwardRuns > 0 && call.eagerBackwardRuns > 0 && call.backwardMs > 0 && call.eagerBackwardMs > 0);

        viz::TimingView v;
        v.resize(1000, 600);
        v.setProfile(tp);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QStringList rows = v.timeline()->trackNames();
        int compile = int(rows.indexOf("compile 0/0")), training = int(rows.indexOf("training 0/0")), backward = int(rows.indexOf("backward 0/0"));
        int runtime = int(rows.indexOf("runtime")), runs = int(rows.indexOf("runtime: backward"));
        QVERIFY2(compile >= 0 && training == compile + 1 && backward == compile + 2, qPrintable(rows.join(", ")));
        QVERIFY2(runtime >= 0 && runs == runtime + 1, qPrintable(rows.join(", ")));
        QRegularExpression re("backward \\(compiled\\): cached [0-9.]+ ms after the call, eager [0-9.]+ ms; "
                              "a training step's share: compiled [0-9.]+ ms, eager [0-9.]+ ms");
        QVERIFY2(re.match(v.summaryText()).hasMatch(), qPrintable(v.summaryText()));
        // hovering the backward compile's row shows its phases; the backward runs' row, a run
        QString seen, runSeen;
        viz::Timeline* t = v.timeline();
        // zoomed to the backward's compile: over the whole run a phase can be narrower than a pixel
        double b0 = 1e300, b1 = -1e300;
        for (auto& s : tp.spans)
            if (s.track == "backward 0/0") b0 = std::min(b0, s.startMs), b1 = std::max(b1, s.startMs + s.ms);
        QVERIFY2(b0 < b1, "the backward's compile has spans");
        t->setView(b0, b1);
        for (int x = 150; x < t->width(); ++x) seen += t->detailsAt(QPoint(x, 20 + backward * 22 + 11)) + "\n";
        QVERIFY2(seen.contains("backward lower  (backward 0/0)"), qPrintable(seen.left(400)));
        const profiler::SpanEvent* run = nullptr;
        for (auto& s : tp.spans)
            if (s.track == "runtime: backward") run = &s;
        QVERIFY(run && run->name == "backward 0/0");
        t->setView(run->startMs, run->startMs + run->ms);
        QString mid = t->detailsAt(QPoint(150 + (t->width() - 154) / 2, 20 + runs * 22 + 11));
        QVERIFY2(mid.startsWith("backward 0/0  (runtime: backward)"), qPrintable(mid));
        // real pixels: the backward runs' colour on their row
        t->setView(0, 1e12);
        if (qEnvironmentVariableIsSet("FUSELAB_TIMING_BACKWARD_PNG")) v.grab().save(qEnvironmentVariable("FUSELAB_TIMING_BACKWARD_PNG"));
        QImage img = t->grab().toImage();
        bool painted = false;
        for (int x = 150; x < img.width() && !painted; ++x) painted = img.pixelColor(x, 20 + runs * 22 + 11) == QColor(215, 150, 110);
        QVERIFY2(painted, "the backward runs are drawn in their colour");
    }
};

QTEST_MAIN(TestTimingView)
#include "test_timing_view.moc"
