#include "app/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QLineEdit>
#include <QComboBox>
#include <QInputDialog>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QHeaderView>
#include <QTreeWidget>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>
#include <QTextBlock>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <utility>

#include "core/run/runner.h"
#include "profiler/profile.h"
#include "viz/code_view.h"
#include "viz/graph_view.h"
#include "viz/python_highlighter.h"
#include "viz/timing_view.h"

namespace fl::app {

namespace {
constexpr int kStateVersion = 3; // of the saved dock layout (3: the Partition pane)
} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle("Fuselab");
    setObjectName("FuselabMainWindow");
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    source_ = new fl::viz::CodeView(this);
    source_->setObjectName("sourceView");
    new fl::viz::PythonHighlighter(source_->document());
    // The script, with the example's teaching note above it when one is open.
    auto* centre = new QWidget(this);
    auto* cl = new QVBoxLayout(centre);
    cl->setContentsMargins(0, 0, 0, 0);
    cl->setSpacing(0);
    note_ = new QLabel(centre);
    note_->setObjectName("exampleNote");
    note_->setWordWrap(true);
    note_->setContentsMargins(8, 4, 8, 4);
    note_->setAutoFillBackground(true);
    note_->setBackgroundRole(QPalette::ToolTipBase);
    note_->setForegroundRole(QPalette::ToolTipText);
    note_->setVisible(false);
    cl->addWidget(note_);
    // The script was edited after its run: the marks, graphs and kernels are the last run's.
    stale_ = new QLabel("<b>Results are from the previous run</b>: the script was edited since. Run (Ctrl+R) to update them.", centre);
    stale_->setObjectName("staleNote");
    stale_->setContentsMargins(8, 3, 8, 3);
    stale_->setAutoFillBackground(true);
    QPalette sp = stale_->palette();
    sp.setColor(QPalette::Window, QColor(255, 236, 179));
    sp.setColor(QPalette::WindowText, QColor(90, 60, 0));
    stale_->setPalette(sp);
    stale_->setVisible(false);
    cl->addWidget(stale_);
    cl->addWidget(source_, 1);
    setCentralWidget(centre);
    connect(source_, &fl::viz::CodeView::lineClicked, this, &MainWindow::selectLine);
    connect(source_->document(), &QTextDocument::contentsChanged, this, &MainWindow::updateStale);
    connect(source_, &fl::viz::CodeView::markClicked, this, &MainWindow::selectMark);

    graphs_ = new fl::viz::GraphsPane(this);
    guards_ = new fl::viz::GuardsPane(this);
    kernels_ = new fl::viz::KernelsPane(this);
    fusion_ = new fl::viz::FusionPane(this);
    partition_ = new fl::viz::PartitionPane(this);
    output_ = new QPlainTextEdit(this);
    output_->setObjectName("outputView");
    output_->setReadOnly(true);
    output_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    timing_ = new fl::viz::TimingView(this);
    timing_->setObjectName("timingView");
    // what is wrong with the model, and where: the first thing to read after a run
    problems_ = new QTreeWidget(this);
    problems_->setObjectName("problemsView");
    problems_->setHeaderLabels({"Problem", "Line", "What happened"});
    problems_->setRootIsDecorated(false);
    problems_->header()->setStretchLastSection(true);

    addPane("Graphs", "graph", graphs_, Qt::RightDockWidgetArea);
    addPane("Fusion", "fusion", fusion_, Qt::RightDockWidgetArea);
    addPane("Kernels", "kernels", kernels_, Qt::RightDockWidgetArea);
    addPane("Guards and recompiles", "guards", guards_, Qt::BottomDockWidgetArea);
    addPane("Timing", "timing", timing_, Qt::BottomDockWidgetArea);
    addPane("Output", "output", output_, Qt::BottomDockWidgetArea);
    addPane("Problems", "problems", problems_, Qt::BottomDockWidgetArea);
    addPane("Partition", "partition", partition_, Qt::RightDockWidgetArea);
    // the graph and the kernels side by side: a node clicked shows its kernel with no tab to
    // switch (split before the fusion tab joins the graph: a tabbed dock cannot be split)
    splitDockWidget(docks_[0], docks_[2], Qt::Horizontal);
    tabifyDockWidget(docks_[0], docks_[1]);
    tabifyDockWidget(docks_[1], docks_[7]);
    tabifyDockWidget(docks_[3], docks_[4]);
    tabifyDockWidget(docks_[3], docks_[5]);
    tabifyDockWidget(docks_[3], docks_[6]);
    docks_[0]->raise();
    docks_[5]->raise();

    connect(graphs_, &fl::viz::GraphsPane::entrySelected, this, &MainWindow::entryChanged);
    graphs_->setLineText([this](int line) {
        QTextBlock b = source_->document()->findBlockByNumber(line - 1);
        return b.isValid() && (!fileBox_ || fileBox_->currentIndex() <= 0) ? b.text() : QString();
    });
    connect(graphs_, &fl::viz::GraphsPane::nodeLinkActivated, this, [this](int id) { selectNodes({id}); });
    connect(graphs_, &fl::viz::GraphsPane::lineLinkActivated, this, [this](int line) { source_->setHighlightedLines({line}); });
    connect(graphs_, &fl::viz::GraphsPane::kernelLinkActivated, this, [this](int k) {
        std::vector<int> nodes;
        if (graphs_->detailsNode() >= 0) nodes.push_back(graphs_->detailsNode());
        kernels_->showKernel(k, nodes);
        raisePane("kernels");
    });
    connect(graphs_->graphView(), &fl::viz::GraphView::nodeClicked, this, &MainWindow::clickNode);
    connect(graphs_, &fl::viz::GraphsPane::forwardNodeActivated, this, [this](int id) {
        graphs_->setGraphKind(fl::viz::GraphKind::Captured);
        selectNodes({id});
    });
    connect(graphs_, &fl::viz::GraphsPane::graphKindChanged, this, [this] { source_->setHighlightedLines({}); });
    connect(kernels_, &fl::viz::KernelsPane::backwardNodesActivated, this, [this](const std::vector<int>& n) {
        graphs_->setGraphKind(fl::viz::GraphKind::Backward);
        selectNodes(n, true);
    });
    // the partition's graph is the captured one
    connect(partition_->graphView(), &fl::viz::GraphView::nodeClicked, this, [this](int id) {
        graphs_->setGraphKind(fl::viz::GraphKind::Captured);
        selectNodes({id});
    });
    connect(partition_, &fl::viz::PartitionPane::stepChanged, this, [this](int step) {
        const inspect::SnapEntry* e = graphs_->currentEntry() >= 0 && snap_ ? &snap_->entries[size_t(graphs_->currentEntry())] : nullptr;
        if (!e || !e->training || step <= 0 || size_t(step) > e->training->decisions.size()) return;
        int node = e->training->decisions[size_t(step - 1)].node;
        if (node >= 0 && size_t(node) < e->nodes.size() && e->nodes[size_t(node)].line > 0) source_->setHighlightedLines({e->nodes[size_t(node)].line});
    });
    connect(fusion_->graphView(), &fl::viz::GraphView::nodeClicked, this, [this](int id) { selectNodes({id}); });
    connect(kernels_, &fl::viz::KernelsPane::nodesActivated, this, [this](const std::vector<int>& n) { selectNodes(n, true); });
    connect(guards_, &fl::viz::GuardsPane::lineActivated, this, [this](int line) { source_->setHighlightedLines({line}); });
    connect(problems_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* it) {
        QList<int> lines;
        for (const QVariant& v : it->data(1, Qt::UserRole).toList()) lines << v.toInt();
        if (!lines.isEmpty()) source_->setHighlightedLines(lines);
    });

    status_ = new QLabel("Ready", this);
    statusBar()->addWidget(status_, 1);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 0);
    progress_->setMaximumWidth(160);
    progress_->setVisible(false);
    statusBar()->addPermanentWidget(progress_);
    buildMenus();

    QSettings s;
    restoreGeometry(s.value("window/geometry").toByteArray());
    // version 2: the kernels beside the graph (a layout saved before keeps them tabbed: dropped)
    firstLayout_ = !restoreState(s.value("window/state").toByteArray(), kStateVersion);
    if (!s.contains("window/geometry")) resize(1400, 900);
}

void MainWindow::showEvent(QShowEvent* e) {
    QMainWindow::showEvent(e);
    if (!firstLayout_) return;
    firstLayout_ = false;
    // First start: the script on the left, the graph and its kernels side by side on the right,
    // a low strip of guards / timing / output / problems below.
    QTimer::singleShot(0, this, [this] {
        resizeDocks({docks_[0], docks_[2]}, {width() * 7 / 20, width() * 6 / 20}, Qt::Horizontal);
        resizeDocks({docks_[5]}, {height() / 5}, Qt::Vertical);
    });
}

QDockWidget* MainWindow::addPane(const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name + "Dock");
    dock->setWidget(w);
    addDockWidget(area, dock);
    docks_ << dock;
    return dock;
}

QStringList MainWindow::paneNames() { return {"source", "graph", "fusion", "kernels", "guards", "timing", "output", "problems", "partition"}; }

QWidget* MainWindow::pane(const QString& name) const {
    if (name == "source") return source_;
    for (QDockWidget* d : docks_)
        if (d->objectName() == name + "Dock") return d->widget();
    return nullptr;
}

void MainWindow::floatPane(const QString& name, const QSize& size) {
    for (QDockWidget* d : docks_)
        if (d->objectName() == name + "Dock") {
            d->setFloating(true);
            d->resize(size);
            d->show();
        }
}

void MainWindow::raisePane(const QString& name) {
    for (QDockWidget* d : docks_)
        if (d->objectName() == name + "Dock") { d->show(); d->raise(); }
    if (name == "source") source_->setFocus();
}

MainWindow::~MainWindow() {
    cancel();
    if (worker_.joinable()) worker_.join();
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu("&File");
    QAction* open = file->addAction("&Open…", this, [this] {
        QString p = QFileDialog::getOpenFileName(this, "Open model script", QString(), "Model scripts (*.py)");
        if (!p.isEmpty()) openFile(p);
    });
    file->addAction("Open &Folder…", this, [this] {
        QString d = QFileDialog::getExistingDirectory(this, "Open a project folder (its modules import beside the script)");
        if (!d.isEmpty()) openFolder(d);
    });
    open->setShortcut(QKeySequence::Open);
    open->setToolTip("Open a model script (Ctrl+O)");
    recentMenu_ = file->addMenu("Open &Recent");
    QAction* save = file->addAction("&Save", this, [this] {
        if (fileBox_->currentIndex() > 0) showFile(0); // the script is what is saved
        if (path_.isEmpty() || path_.startsWith(":")) {
            QString p = QFileDialog::getSaveFileName(this, "Save model script", QString(), "Model scripts (*.py)");
            if (p.isEmpty()) return;
            path_ = p;
        }
        QFile f(path_);
        if (!f.open(QIODevice::WriteOnly)) { QMessageBox::warning(this, "Fuselab", "Cannot write " + path_); return; }
        f.write(source_->toPlainText().toUtf8());
        status_->setText("Saved " + path_);
    });
    save->setShortcut(QKeySequence::Save);
    file->addSeparator();
    QAction* quit = file->addAction("&Quit", this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* examples = menuBar()->addMenu("&Examples");
    QDir dir(":/models");
    for (const QString& name : dir.entryList({"*.py"}, QDir::Files, QDir::Name)) {
        QString base = QFileInfo(name).completeBaseName();
        QAction* a = examples->addAction(base, this, [this, name] { openExample(":/models/" + name); });
        QFile note(":/models/" + base + ".note.txt");
        if (note.open(QIODevice::ReadOnly)) {
            QString text = QString::fromUtf8(note.readAll()).trimmed();
            a->setToolTip(text);
            a->setStatusTip(text.simplified());
        }
    }
    examples->setToolTipsVisible(true);

    QMenu* runMenu = menuBar()->addMenu("&Run");
    runAct_ = runMenu->addAction("&Run", this, &MainWindow::run);
    runAct_->setShortcut(QKeySequence("Ctrl+R"));
    runAct_->setToolTip("Run the script in the background (Ctrl+R)");
    cancelAct_ = runMenu->addAction("&Cancel", this, &MainWindow::cancel);
    cancelAct_->setShortcut(QKeySequence(Qt::Key_Escape));
    cancelAct_->setEnabled(false);

    viewMenu_ = menuBar()->addMenu("&View");
    const QStringList titles = {"&Source", "&Graphs", "&Fusion", "&Kernels", "G&uards and recompiles", "&Timing", "&Output", "&Problems", "P&artition"};
    for (int i = 0; i < paneNames().size(); ++i) {
        QString name = paneNames()[i];
        QAction* a = viewMenu_->addAction(titles[i], this, [this, name] { raisePane(name); });
        a->setShortcut(QKeySequence(QString("Alt+%1").arg(i + 1)));
    }
    viewMenu_->addSeparator();
    QMenu* step = viewMenu_->addMenu("Fusion &step");
    step->addAction("&First", QKeySequence("Alt+Home"), this, [this] { raisePane("fusion"); fusion_->first(); });
    step->addAction("&Previous", QKeySequence("Alt+Left"), this, [this] { raisePane("fusion"); fusion_->previous(); });
    step->addAction("&Next", QKeySequence("Alt+Right"), this, [this] { raisePane("fusion"); fusion_->next(); });
    step->addAction("&Last", QKeySequence("Alt+End"), this, [this] { raisePane("fusion"); fusion_->last(); });
    viewMenu_->addSeparator();
    for (QDockWidget* d : docks_) viewMenu_->addAction(d->toggleViewAction());

    QToolBar* tb = addToolBar("Main");
    tb->setObjectName("mainToolBar");
    tb->addAction(open);
    tb->addAction(runAct_);
    tb->addAction(cancelAct_);
    tb->addSeparator();
    tb->addWidget(new QLabel(" Arguments ", tb));
    argsEdit_ = new QLineEdit(tb);
    argsEdit_->setObjectName("scriptArguments");
    argsEdit_->setPlaceholderText("--epochs 1 (sys.argv[1:])");
    argsEdit_->setToolTip("The script's arguments, as after `fuselab run model.py --`: argparse reads them");
    argsEdit_->setMaximumWidth(260);
    tb->addWidget(argsEdit_);
    tb->addWidget(new QLabel(" File ", tb));
    fileBox_ = new QComboBox(tb);
    fileBox_->setObjectName("sourceFile");
    fileBox_->setToolTip("The script, or a module it imported (read-only, its graph breaks marked)");
    fileBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    tb->addWidget(fileBox_);
    connect(fileBox_, &QComboBox::activated, this, &MainWindow::showFile);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    QStringList recent = QSettings().value("recentFiles").toStringList();
    for (const QString& p : recent) recentMenu_->addAction(p, this, [this, p] { openFile(p); });
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::setDocument(const QString& path, const QString& text) {
    // a run of the previous document stops, and what it finds is dropped when it ends
    ++document_;
    cancel();
    path_ = path;
    source_->setReadOnly(false);
    scriptText_.clear();
    ranText_ = QString();
    stale_->setVisible(false);
    note_->setVisible(false);
    source_->setPlainText(text);
    clearResults();
    setWindowTitle(QFileInfo(path).fileName() + " — Fuselab");
}

void MainWindow::clearResults() {
    // the steps of the last snapshot stop (they check snap_); a finished run waiting for them ends now
    applying_ = false;
    if (auto then = std::exchange(whenApplied_, nullptr)) then();
    source_->setErrorLine(0);
    source_->setMarks({});
    source_->setLineTints({});
    source_->setHighlightedLines({});
    output_->clear();
    problems_->clear();
    snap_ = std::make_shared<const inspect::Snapshot>();
    graphs_->setSnapshot(snap_);
    guards_->setSnapshot(snap_);
    kernels_->setSnapshot(snap_);
    fusion_->setSnapshot(snap_);
    partition_->setSnapshot(snap_);
    graphs_->graphView()->searchBox()->clear();
    fusion_->graphView()->searchBox()->clear();
    timing_->setProfile(profiler::Profile{});
    fillFileBox();
}

bool MainWindow::openFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        status_->setText("Cannot open " + path);
        return false;
    }
    setDocument(path, QString::fromUtf8(f.readAll()));
    if (!path.startsWith(":")) {
        QSettings s;
        QStringList recent = s.value("recentFiles").toStringList();
        recent.removeAll(path);
        recent.prepend(QFileInfo(path).absoluteFilePath());
        while (recent.size() > 10) recent.removeLast();
        s.setValue("recentFiles", recent);
        updateRecentMenu();
    }
    status_->setText("Opened " + path);
    return true;
}

void MainWindow::openExample(const QString& resourcePath) {
    if (!openFile(resourcePath)) return;
    QFile note(QString(resourcePath).replace(".py", ".note.txt"));
    if (!note.open(QIODevice::ReadOnly)) return;
    // "# teaches: ...\n# look for: ..." -> two lines of text
    QStringList lines;
    for (QString l : QString::fromUtf8(note.readAll()).split('\n', Qt::SkipEmptyParts)) {
        l = l.trimmed();
        if (l.startsWith('#')) l = l.mid(1).trimmed();
        int colon = l.indexOf(':');
        if (colon > 0 && colon < 12) l = "<b>" + l.left(colon).toHtmlEscaped() + ":</b>" + l.mid(colon + 1).toHtmlEscaped();
        else l = l.toHtmlEscaped();
        lines << l;
    }
    note_->setText(lines.join("<br>"));
    note_->setVisible(true);
    status_->setText("Opened example " + QFileInfo(resourcePath).fileName() + " — Ctrl+R runs it");
}

QString MainWindow::outputText() const { return output_->toPlainText(); }

bool MainWindow::resultsAreStale() const { return !stale_->isHidden(); }

void MainWindow::updateStale() {
    // only the script's own text counts: not an imported file shown, not before a run or during one
    bool script = !fileBox_ || fileBox_->currentIndex() <= 0;
    bool stale = script && !ranText_.isNull() && !running_ && source_->toPlainText() != ranText_;
    if (stale != !stale_->isHidden()) stale_->setVisible(stale);
}

void MainWindow::appendOutput(const QString& text, bool isError) {
    QTextCursor c = output_->textCursor();
    c.movePosition(QTextCursor::End);
    QTextCharFormat fmt;
    if (isError) fmt.setForeground(QColor("#d32f2f"));
    c.insertText(text, fmt);
    output_->setTextCursor(c);
}

// The Arguments field split as a POSIX shell splits words: blanks separate, '...' and "..." quote,
// a backslash escapes the next character (outside single quotes).
static QStringList splitArguments(const QString& text) {
    QStringList out;
    QString cur;
    bool inWord = false;
    QChar quote;
    for (int i = 0; i < text.size(); ++i) {
        QChar c = text[i];
        if (quote.isNull() && c.isSpace()) {
            if (inWord) out << cur;
            cur.clear();
            inWord = false;
            continue;
        }
        inWord = true;
        if (quote.isNull() && (c == '\'' || c == '"')) { quote = c; continue; }
        if (!quote.isNull() && c == quote) { quote = QChar(); continue; }
        if (c == '\\' && quote != '\'' && i + 1 < text.size()) c = text[++i];
        cur += c;
    }
    if (inWord) out << cur;
    return out;
}

void MainWindow::run() {
    if (running_) return;
    if (worker_.joinable()) worker_.join();
    output_->clear();
    source_->setErrorLine(0);
    source_->setMarks({});
    source_->setLineTints({});
    cancel_.reset();
    running_ = true;
    problemsRaised_ = false;
    applying_ = false;
    whenApplied_ = nullptr;
    progress_->setVisible(true);
    runAct_->setEnabled(false);
    cancelAct_->setEnabled(true);
    status_->setText("Running…");
    run::RunConfig cfg;
    if (fileBox_->currentIndex() > 0) showFile(0); // the script is what runs
    // a file on disk runs under its full path, so the modules beside it import
    bool onDisk = !path_.isEmpty() && !path_.startsWith(":") && QFileInfo(path_).isFile();
    cfg.path = path_.isEmpty() ? QString("untitled.py").toStdString()
                               : (onDisk ? QFileInfo(path_).absoluteFilePath() : QFileInfo(path_).fileName()).toStdString();
    ranText_ = source_->toPlainText();
    stale_->setVisible(false);
    cfg.source = ranText_.toStdString();
    for (const QString& a : splitArguments(argsEdit_->text())) cfg.args.push_back(a.toStdString());
    cfg.haveSource = true;
    cfg.cancel = &cancel_;
    cfg.timeoutSeconds = 300;
    // Output is posted to the UI thread; the script never touches widgets. A run's output and
    // results land only while its document is the open one.
    const int doc = document_;
    cfg.out = [this, doc](const std::string& s) {
        QString q = QString::fromStdString(s);
        QMetaObject::invokeMethod(this, [this, q, doc] { if (doc == document_) appendOutput(q, false); }, Qt::QueuedConnection);
    };
    cfg.err = [this, doc](const std::string& s) {
        QString q = QString::fromStdString(s);
        QMetaObject::invokeMethod(this, [this, q, doc] { if (doc == document_) appendOutput(q, true); }, Qt::QueuedConnection);
    };
    // At the end of the run (on the worker, before the interpreter goes), the snapshot of what
    // capture and the compiler did; the panes draw from it on the UI thread.
    // The profile comes after the snapshot: its replays recompile, and the snapshot must show
    // what the script itself did.
    // While the run compiles, each graph capture hands over is shown at once (a partial snapshot:
    // graphs, guards, breaks); the panes that wait for kernels say so. The snapshot at the end
    // adds the kernels, the profile then the timing.
    auto profile = std::make_shared<std::shared_ptr<const profiler::Profile>>();
    auto watch = std::make_shared<std::shared_ptr<inspect::CompileWatch>>();
    std::string file = cfg.path;
    const int runId = ++runs_;
    cfg.beforeRun = [this, watch, file, doc, runId, hold = beforeCompile_](script::Interp& in) {
        profiler::prepare(in);
        *watch = inspect::watchCompiles(in, file, [this, doc, runId, hold](inspect::Snapshot s) {
            auto partial = std::make_shared<const inspect::Snapshot>(std::move(s));
            QMetaObject::invokeMethod(this, [this, partial, doc, runId] {
                if (doc != document_ || runId != runs_ || !running_) return;
                status_->setText(fl::viz::pendingText(*partial));
                applySnapshot(partial, nullptr);
            }, Qt::QueuedConnection);
            if (hold) hold();
        });
    };
    cfg.afterRun = [this, watch, profile, file, doc, runId](script::Interp& in) {
        if (*watch) (*watch)->stop(); // the profiler's replays compile again: not the script's graphs
        QMetaObject::invokeMethod(this, [this] { status_->setText("Collecting the compiler's results…"); }, Qt::QueuedConnection);
        inspect::SnapshotOptions so;
        so.irAndAssembly = true;
        auto snap = std::make_shared<const inspect::Snapshot>(inspect::takeSnapshot(in, file, so));
        const bool timed = !cancel_.cancelled();
        // the kernels now, the timing when the replays are done
        QMetaObject::invokeMethod(this, [this, snap, doc, runId, timed] {
            if (doc != document_ || runId != runs_) return;
            applySnapshot(snap, nullptr);
            if (timed) timing_->setPending("Timing cached and eager calls…");
        }, Qt::QueuedConnection);
        if (!timed) return;
        QMetaObject::invokeMethod(this, [this] { status_->setText("Timing cached and eager calls…"); }, Qt::QueuedConnection);
        profiler::CollectOptions po;
        po.budgetSeconds = 1.0; // the window's replays stay short; `fuselab profile` measures longer
        po.minSeconds = 0.05;
        *profile = std::make_shared<const profiler::Profile>(profiler::collect(in, po));
    };
    worker_ = std::thread([this, cfg, profile, watch, doc, runId] {
        run::RunResult r = run::runScript(cfg);
        // `watch` lives until here: the interpreter that calls it is gone
        QMetaObject::invokeMethod(this, [this, r, profile, doc, runId] {
            if (doc != document_ || runId != runs_) { // another file was opened meanwhile: its panes stay empty
                finishRun(r.exitCode, 0, r.seconds);
                return;
            }
            auto done = [this, r, profile] {
                if (*profile) timing_->setProfile(**profile);
                else timing_->setProfile(profiler::Profile{});
                finishRun(r.exitCode, r.errorLine, r.seconds);
            };
            // after the last pane took the final snapshot
            if (applying_) whenApplied_ = done;
            else done();
        }, Qt::QueuedConnection);
    });
}

void MainWindow::cancel() {
    if (running_) cancel_.cancel();
}

void MainWindow::finishRun(int exitCode, int errorLine, double seconds) {
    running_ = false;
    updateStale();
    progress_->setVisible(false);
    runAct_->setEnabled(true);
    cancelAct_->setEnabled(false);
    source_->setErrorLine(errorLine);
    status_->setText(QString("%1 in %2 ms").arg(exitCode == 0 ? "Finished" : exitCode == 130 ? "Cancelled" : "Failed").arg(seconds * 1000.0, 0, 'f', 1));
    Q_EMIT runFinished(exitCode);
}

void MainWindow::closeEvent(QCloseEvent* e) {
    cancel();
    if (worker_.joinable()) worker_.join();
    QSettings s;
    s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", saveState(kStateVersion));
    e->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile() && u.toLocalFile().endsWith(".py")) { openFile(u.toLocalFile()); run(); break; }
}

void MainWindow::applySnapshot(std::shared_ptr<const inspect::Snapshot> snap, std::function<void()> done) {
    snap_ = std::move(snap);
    const inspect::Snapshot& s = *snap_;
    applying_ = true;
    source_->setMarks(marksFor(""));
    fillFileBox();
    problems_->clear();
    for (const auto& p : s.problems) {
        // the line that led there first: the compiled frame's call of the helper that broke, the
        // call that recompiled
        int line = p.callLine > 0 ? p.callLine : p.line;
        auto* it = new QTreeWidgetItem(problems_, {QString::fromStdString(p.kind), line > 0 ? QString::number(line) : QString(),
                                                   QString::fromStdString(p.text + "  [" + p.ids + "]")});
        QVariantList lines;
        for (int l : {p.callLine, p.line})
            if (l > 0 && !lines.contains(l)) lines << l;
        it->setData(1, Qt::UserRole, lines);
        it->setToolTip(1, p.callLine > 0 && p.line > 0 && p.callLine != p.line ? QString("line %1, led to from line %2").arg(p.line).arg(p.callLine) : QString());
        it->setToolTip(2, QString::fromStdString(p.text));
        it->setForeground(0, p.kind == "graph break" ? QColor("#c62828") : QColor("#b26a00"));
    }
    problems_->resizeColumnToContents(0);
    if (!s.problems.empty() && !problemsRaised_) { // the first thing to read after a run (raised once a run)
        docks_[6]->raise();
        problemsRaised_ = true;
    }
    if (s.partial) timing_->setPending(fl::viz::pendingText(s));
    // One pane per turn of the event loop, so that a big graph's snapshot never holds the UI
    // thread for long; `done` runs after the last, then whatever waited for it (whenApplied_).
    // The kernel, fusion and partition panes follow the entry the Graphs pane shows.
    auto follow = [this] { return graphs_->currentEntry(); };
    auto steps = std::make_shared<std::vector<std::function<void()>>>(std::vector<std::function<void()>>{
        [this] { graphs_->setSnapshot(snap_); },
        [this] { guards_->setSnapshot(snap_); },
        [this, follow] {
            kernels_->setSnapshot(snap_);
            if (follow() > 0) kernels_->setEntry(follow());
        },
        [this, follow] {
            fusion_->setSnapshot(snap_);
            if (follow() > 0) fusion_->setEntry(follow());
            if (snap_->entries.empty()) source_->setLineTints({});
        },
        [this, follow] {
            partition_->setSnapshot(snap_);
            if (follow() > 0) partition_->setEntry(follow());
        },
        [this, follow, done = std::move(done)] {
            applying_ = false;
            showEntryInSource(follow());
            if (done) done();
            if (auto then = std::exchange(whenApplied_, nullptr)) then();
        }});
    auto next = std::make_shared<std::function<void(size_t)>>();
    *next = [this, steps, next, snap = snap_](size_t i) {
        if (snap != snap_) return; // a newer snapshot replaced this one (its own steps run)
        (*steps)[i]();
        // a 1 ms timer, not 0: zero-timeouts chained run back to back, ahead of other timers
        if (i + 1 < steps->size()) QTimer::singleShot(1, this, [next, i] { (*next)(i + 1); });
        else *next = nullptr; // break the cycle
    };
    (*next)(0);
}

// A short name for what broke, for the call sites' marks ("Tensor.item").
static QString breakLabel(const std::string& kind) {
    static const QMap<QString, QString> labels = {{"item", "Tensor.item"}, {"tolist", "Tensor.tolist"}, {"print", "print"},
                                                  {"data_dependent", "data-dependent branch"}, {"graph_break", "graph_break()"},
                                                  {"nonzero", "nonzero"}, {"backward", "Tensor.backward"}, {"disable", "disabled function"},
                                                  {"observed_exception", "exception"}, {"side_effect", "side effect"}};
    QString k = QString::fromStdString(kind);
    return labels.value(k, k);
}

// "File \"m.py\", line 20, in forward..." -> file, line, function.
struct StackFrame {
    std::string file, function;
    int line = 0;
};
static StackFrame stackFrame(const std::string& entry) {
    static const QRegularExpression re(R"re(File "([^"]*)", line (\d+), in ([^\n]*))re");
    QRegularExpressionMatch m = re.match(QString::fromStdString(entry));
    if (!m.hasMatch()) return {};
    return {m.captured(1).toStdString(), m.captured(3).toStdString(), m.captured(2).toInt()};
}

// The marks of graph breaks on the script (importedFile empty) or on a file it imported: the
// line that broke, and each line of a compiled frame or helper that called into it (a break in a
// helper ends the graph of the frame that called the helper, at that call). Each tooltip holds
// the whole user stack.
QList<fl::viz::LineMark> MainWindow::breakMarks(const std::string& importedFile) const {
    const inspect::Snapshot& s = *snap_;
    auto same = [](const std::string& a, const std::string& b) {
        return QFileInfo(QString::fromStdString(a)).canonicalFilePath() == QFileInfo(QString::fromStdString(b)).canonicalFilePath();
    };
    // the line in the shown file, else 0
    auto lineHere = [&](const std::string& file, int line) {
        if (line <= 0) return 0;
        if (importedFile.empty()) return inspect::scriptLineIn("File \"" + file + "\", line " + std::to_string(line), s.file) == line ? line : 0;
        return same(file, importedFile) ? line : 0;
    };
    // The same break is often recorded by several frames (the frame, then the helper as a frame of
    // its own): one mark, naming every compile id. "{ids}" in a tooltip stands for them.
    QList<fl::viz::LineMark> marks;
    QList<QStringList> ids;
    QMap<QString, int> seen; // kind, line and text -> index in marks
    auto add = [&](fl::viz::LineMark::Kind kind, int line, const QString& tip, const std::string& id) {
        QString key = QString("%1:%2:%3").arg(int(kind)).arg(line).arg(tip);
        auto it = seen.find(key);
        if (it == seen.end()) {
            it = seen.insert(key, int(marks.size()));
            marks << fl::viz::LineMark{kind, line, tip};
            ids << QStringList();
        }
        if (!ids[*it].contains(QString::fromStdString(id))) ids[*it] << QString::fromStdString(id);
    };
    for (size_t i = 0; i < s.breaks.size(); ++i) {
        const events::BreakFacts& b = s.breaks[i];
        const std::vector<std::string> chain = i < s.breakChains.size() ? s.breakChains[i] : std::vector<std::string>{};
        QString stack = "<br><b>User stack</b> (outermost first):";
        for (const std::string& f : b.userStack) stack += "<br><code>" + QString::fromStdString(f).toHtmlEscaped().replace("\n", "<br>&nbsp;&nbsp;") + "</code>";
        QString what = QString::fromStdString(b.reason).toHtmlEscaped();
        if (int line = lineHere(b.file, b.line)) {
            QString tip = QString("<b>Graph break</b> in {ids}: %1<br>%2").arg(what, QString::fromStdString(b.explanation).toHtmlEscaped());
            for (auto& h : b.hints) tip += "<br><i>Hint:</i> " + QString::fromStdString(h).toHtmlEscaped();
            if (b.skippedFrame) tip += "<br>The break is inside a loop: the whole frame runs eagerly.";
            add(fl::viz::LineMark::Break, line, tip + stack, b.id);
        }
        // the calls that led to it: outermost, the compiled frame's line where its graph ends
        for (size_t k = 0; k + 1 < chain.size(); ++k) {
            StackFrame caller = stackFrame(chain[k]), callee = stackFrame(chain[k + 1]);
            int line = lineHere(caller.file, caller.line);
            if (!line) continue;
            QString where = same(callee.file, caller.file) ? QString("line %1").arg(b.line)
                                                           : QString("%1:%2").arg(QFileInfo(QString::fromStdString(b.file)).fileName()).arg(b.line);
            QString head = k == 0 ? "<b>Graph ends here</b> ({ids}): break in %1, %2 (%3)" : "<b>Calls into a graph break</b> ({ids}): break in %1, %2 (%3)";
            QString tip = head.arg(QString::fromStdString(stackFrame(chain.back()).function).toHtmlEscaped(), where, breakLabel(b.kind)) + "<br>" + what;
            add(fl::viz::LineMark::BreakCall, line, tip + stack, b.id);
        }
    }
    for (int i = 0; i < marks.size(); ++i) marks[i].tooltip.replace("{ids}", ids[i].join(", "));
    return marks;
}

// Marks on the script (importedFile empty) or on a file it imported: graph breaks (red) and,
// on the script, the lines whose guards failed and the calls that recompiled (amber).
QList<fl::viz::LineMark> MainWindow::marksFor(const std::string& importedFile) const {
    const inspect::Snapshot& s = *snap_;
    QList<fl::viz::LineMark> marks = breakMarks(importedFile);
    if (!importedFile.empty()) return marks; // recompile marks: the guard lines are the script's
    for (const auto& r : s.recompiles)
        for (size_t i = 0; i < r.reasons.size(); ++i) {
            int line = i < r.guardLines.size() ? r.guardLines[i] : 0;
            if (line <= 0) continue;
            QString tip = QString("<b>%1</b> %2 (%3): guard failed: <code>%4</code><br>This line created the guard.")
                              .arg(r.limitHit ? "Recompile limit hit" : "Recompile", QString::fromStdString(r.id), QString::fromStdString(r.function),
                                   QString::fromStdString(r.reasons[i]).toHtmlEscaped());
            marks << fl::viz::LineMark{fl::viz::LineMark::Recompile, line, tip};
        }
    // The calls that recompiled: one mark a line, naming what changed between the calls.
    QMap<int, QStringList> ids;
    QMap<int, const inspect::SnapRecompile*> last;
    for (const auto& r : s.recompiles)
        if (r.callLine > 0 && !r.limitHit) ids[r.callLine] << QString::fromStdString(r.id), last[r.callLine] = &r;
    for (auto it = ids.begin(); it != ids.end(); ++it) {
        const inspect::SnapRecompile& r = *last[it.key()];
        QString tip = QString("<b>Recompiled on %1 call%2 made here</b>: %3 (%4)")
                          .arg(it.value().size()).arg(it.value().size() == 1 ? "" : "s", QString::fromStdString(r.function).toHtmlEscaped(), it.value().join(", "));
        for (const std::string& c : r.changed) tip += "<br><b>" + QString::fromStdString(c).toHtmlEscaped() + "</b>";
        if (!r.reasons.empty()) tip += "<br>The last because guard failed: <code>" + QString::fromStdString(r.reasons.front()).toHtmlEscaped() + "</code>";
        marks << fl::viz::LineMark{fl::viz::LineMark::Recompile, it.key(), tip};
    }
    return marks;
}

// The File box: the script, then each file the last run imported (named from the script's folder).
void MainWindow::fillFileBox() {
    if (!fileBox_) return;
    fileBox_->clear();
    fileBox_->addItem(path_.isEmpty() ? QString("untitled.py") : QFileInfo(path_).fileName());
    QDir base = QFileInfo(path_).absoluteDir();
    for (const std::string& f : snap_ ? snap_->imports : std::vector<std::string>{}) {
        QString q = QString::fromStdString(f);
        QString rel = base.relativeFilePath(QFileInfo(q).absoluteFilePath());
        fileBox_->addItem(rel.startsWith("..") ? q : rel, q);
    }
    fileBox_->setEnabled(fileBox_->count() > 1);
}

void MainWindow::showFile(int index) {
    if (index < 0 || index >= fileBox_->count()) return;
    bool wasScript = !source_->isReadOnly();
    if (index == 0) {
        if (!wasScript) {
            source_->setPlainText(scriptText_);
            source_->setReadOnly(false);
            source_->setMarks(marksFor(""));
        }
    } else {
        if (wasScript) scriptText_ = source_->toPlainText();
        QString file = fileBox_->itemData(index).toString();
        QFile f(file);
        QString text = f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString("# cannot read " + file);
        source_->setPlainText(text);
        source_->setReadOnly(true);
        source_->setLineTints({});
        source_->setHighlightedLines({});
        source_->setMarks(marksFor(file.toStdString()));
        status_->setText("Showing " + file + " (imported by the script; read-only)");
    }
    fileBox_->setCurrentIndex(index);
    updateStale();
}

bool MainWindow::openFolder(const QString& dir, const QString& entry) {
    QDir d(dir);
    QStringList scripts = d.entryList({"*.py"}, QDir::Files, QDir::Name);
    QString pick = entry;
    if (pick.isEmpty() && scripts.contains("main.py")) pick = "main.py";
    if (pick.isEmpty() && scripts.size() == 1) pick = scripts[0];
    if (pick.isEmpty() && !scripts.isEmpty()) {
        bool ok = false;
        pick = QInputDialog::getItem(this, "Open folder", "The script to run (the others import beside it):", scripts, 0, false, &ok);
        if (!ok) return false;
    }
    if (pick.isEmpty()) {
        status_->setText("No .py script in " + dir);
        return false;
    }
    return openFile(d.absoluteFilePath(pick));
}

void MainWindow::setScriptArguments(const QString& args) { argsEdit_->setText(args); }

// A compiled entry picked: every pane shows it; script lines are tinted by the kernel that
// computes their ops.
void MainWindow::entryChanged(int index) {
    // while a snapshot is handed out, each pane takes its entry on its own turn, and the last
    // turn shows its guards and tints (not here: the kernel pane still had the last snapshot)
    if (!snap_ || index < 0 || applying_) return;
    kernels_->setEntry(index);
    fusion_->setEntry(index);
    partition_->setEntry(index);
    showEntryInSource(index);
}

void MainWindow::showEntryInSource(int index) {
    if (!snap_ || index < 0 || size_t(index) >= snap_->entries.size()) return;
    guards_->showEntry(index);
    const inspect::SnapEntry& e = snap_->entries[size_t(index)];
    QMap<int, QColor> tints;
    for (const auto& n : e.nodes)
        if (n.line > 0 && n.kernel >= 0 && (!tints.contains(n.line) || e.kernels[size_t(n.kernel)].kind == "kernel"))
            tints[n.line] = fl::viz::keyColour(n.kernel);
    source_->setLineTints(tints);
}

void MainWindow::selectLine(int line) {
    if (fileBox_ && fileBox_->currentIndex() > 0) return; // an imported file: its lines are not the script's
    if (!snap_ || line <= 0) return;
    int current = graphs_->currentEntry();
    // A training graph shown: its nodes of that line, else the captured graphs'.
    if (const inspect::SnapEntry* shown = graphs_->shownGraph(); shown && graphs_->graphKind() != fl::viz::GraphKind::Captured) {
        std::vector<int> nodes;
        for (const auto& n : shown->nodes)
            if (n.line == line && n.kind != inspect::SnapNode::Kind::Output) nodes.push_back(n.id);
        if (!nodes.empty()) { selectNodes(nodes); return; }
        graphs_->setGraphKind(fl::viz::GraphKind::Captured);
    }
    // The current entry first, then the others in order.
    std::vector<int> order;
    if (current >= 0) order.push_back(current);
    for (int i = 0; i < int(snap_->entries.size()); ++i)
        if (i != current) order.push_back(i);
    for (int i : order) {
        std::vector<int> nodes;
        for (const auto& n : snap_->entries[size_t(i)].nodes)
            if (n.line == line && n.kind != inspect::SnapNode::Kind::Output) nodes.push_back(n.id);
        if (nodes.empty()) continue;
        graphs_->selectEntry(i);
        selectNodes(nodes);
        return;
    }
    source_->setHighlightedLines({line});
}

void MainWindow::selectMark(int line) {
    if (fileBox_ && fileBox_->currentIndex() > 0) return;
    if (!snap_) return;
    for (size_t bi = 0; bi < snap_->breaks.size(); ++bi) {
        const events::BreakFacts& b = snap_->breaks[bi];
        // the line that broke, or a call on the way to it (a helper's call in the compiled frame)
        bool onChain = false;
        if (bi < snap_->breakChains.size())
            for (const std::string& f : snap_->breakChains[bi]) onChain = onChain || inspect::scriptLineIn(f, snap_->file) == line;
        if (b.line != line && !onChain) continue;
        // The frame that broke: its graph holds what ran before the break (and the ops of the
        // breaking line that could be traced).
        for (int i = 0; i < int(snap_->entries.size()); ++i) {
            const auto& e = snap_->entries[size_t(i)];
            if (e.id != b.id) continue;
            std::vector<int> nodes;
            for (const auto& n : e.nodes)
                if (n.line == line && n.kind != inspect::SnapNode::Kind::Output) nodes.push_back(n.id);
            if (nodes.empty())
                for (auto it = e.nodes.rbegin(); it != e.nodes.rend(); ++it)
                    if (it->kind == inspect::SnapNode::Kind::Op || it->kind == inspect::SnapNode::Kind::Extern || it->kind == inspect::SnapNode::Kind::Fallback) {
                        nodes.push_back(it->id);
                        break;
                    }
            graphs_->selectEntry(i);
            graphs_->setGraphKind(fl::viz::GraphKind::Captured);
            raisePane("graph");
            if (!nodes.empty()) selectNodes(nodes);
            source_->setHighlightedLines({line});
            status_->setText(QString("Graph break at line %1: %2").arg(line).arg(QString::fromStdString(b.reason)));
            return;
        }
    }
    for (int i = 0; i < int(snap_->recompiles.size()); ++i)
        if (snap_->recompiles[size_t(i)].callLine == line) { // a call that recompiled
            raisePane("guards");
            guards_->showRecompile(i);
            source_->setHighlightedLines({line});
            return;
        }
    for (const auto& r : snap_->recompiles)
        for (int gl : r.guardLines)
            if (gl == line) {
                raisePane("guards");
                guards_->showRecompileAt(line);
                source_->setHighlightedLines({line});
                return;
            }
    selectLine(line);
}

void MainWindow::clickNode(int id) {
    const inspect::SnapEntry* shown = graphs_->shownGraph();
    const int index = graphs_->currentEntry();
    if (shown && graphs_->graphKind() == fl::viz::GraphKind::Backward) {
        const inspect::SnapEntry& captured = snap_->entries[size_t(index)];
        const auto& from = captured.training->savedFrom;
        if (id >= 0 && size_t(id) < from.size() && from[size_t(id)] >= 0 && size_t(from[size_t(id)]) < captured.nodes.size()) {
            // the bridge: a saved value is a node of the forward
            const int f = from[size_t(id)];
            graphs_->setGraphKind(fl::viz::GraphKind::Captured);
            selectNodes({f});
            status_->setText(QString("Saved for the backward: %1, computed by the forward (the Backward tab goes back)")
                                 .arg(QString::fromStdString(captured.nodes[size_t(f)].name)));
            return;
        }
    }
    selectNodes({id});
}

void MainWindow::selectNodes(const std::vector<int>& nodes, bool fromKernel) {
    int index = graphs_->currentEntry();
    const inspect::SnapEntry* shown = graphs_->shownGraph();
    if (!snap_ || index < 0 || !shown || nodes.empty()) return;
    const inspect::SnapEntry& e = *shown;
    const fl::viz::GraphKind kind = graphs_->graphKind();
    graphs_->graphView()->selectNodes(nodes);
    graphs_->showNodeDetails(nodes.front());
    if (kind == fl::viz::GraphKind::Captured) fusion_->setSelectedNode(nodes.front());
    QList<int> lines;
    int kernel = -1;
    for (int id : nodes) {
        if (id < 0 || size_t(id) >= e.nodes.size()) continue;
        const auto& n = e.nodes[size_t(id)];
        if (n.line > 0 && !lines.contains(n.line)) lines << n.line;
        if (kernel < 0) kernel = n.kernel;
    }
    source_->setHighlightedLines(lines);
    // the Kernels pane lists the entry's kernels, then the backward's
    if (kind == fl::viz::GraphKind::Backward) kernel = kernel >= 0 ? kernels_->backwardRow(kernel) : -1;
    else if (kind != fl::viz::GraphKind::Captured) kernel = -1;
    if (!fromKernel && kernel >= 0) kernels_->showKernel(kernel, nodes);
}

} // namespace fl::app
