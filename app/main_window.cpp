#include "app/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
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
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>

#include "core/script/runner.h"
#include "viz/code_view.h"
#include "viz/python_highlighter.h"

namespace fl::app {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle("Fuselab");
    setObjectName("FuselabMainWindow");
    setAcceptDrops(true);
    source_ = new fl::viz::CodeView(this);
    source_->setObjectName("sourceView");
    new fl::viz::PythonHighlighter(source_->document());
    setCentralWidget(source_);

    auto* dock = new QDockWidget("Output", this);
    dock->setObjectName("outputDock");
    output_ = new QPlainTextEdit(dock);
    output_->setObjectName("outputView");
    output_->setReadOnly(true);
    output_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    dock->setWidget(output_);
    addDockWidget(Qt::BottomDockWidgetArea, dock);

    status_ = new QLabel("Ready", this);
    statusBar()->addWidget(status_, 1);
    buildMenus();

    QSettings s;
    restoreGeometry(s.value("window/geometry").toByteArray());
    restoreState(s.value("window/state").toByteArray());
    if (!s.contains("window/geometry")) resize(1100, 760);
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
    open->setShortcut(QKeySequence::Open);
    open->setToolTip("Open a model script (Ctrl+O)");
    recentMenu_ = file->addMenu("Open &Recent");
    QAction* save = file->addAction("&Save", this, [this] {
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

    QToolBar* tb = addToolBar("Main");
    tb->setObjectName("mainToolBar");
    tb->addAction(open);
    tb->addAction(runAct_);
    tb->addAction(cancelAct_);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    QStringList recent = QSettings().value("recentFiles").toStringList();
    for (const QString& p : recent) recentMenu_->addAction(p, this, [this, p] { openFile(p); });
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::setDocument(const QString& path, const QString& text) {
    path_ = path;
    source_->setPlainText(text);
    source_->setErrorLine(0);
    output_->clear();
    setWindowTitle(QFileInfo(path).fileName() + " — Fuselab");
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
    if (note.open(QIODevice::ReadOnly)) status_->setText(QString::fromUtf8(note.readAll()).simplified());
}

QString MainWindow::outputText() const { return output_->toPlainText(); }

void MainWindow::appendOutput(const QString& text, bool isError) {
    QTextCursor c = output_->textCursor();
    c.movePosition(QTextCursor::End);
    QTextCharFormat fmt;
    if (isError) fmt.setForeground(QColor("#d32f2f"));
    c.insertText(text, fmt);
    output_->setTextCursor(c);
}

void MainWindow::run() {
    if (running_) return;
    if (worker_.joinable()) worker_.join();
    output_->clear();
    source_->setErrorLine(0);
    cancel_.reset();
    running_ = true;
    runAct_->setEnabled(false);
    cancelAct_->setEnabled(true);
    status_->setText("Running…");
    script::RunConfig cfg;
    cfg.path = path_.isEmpty() ? QString("untitled.py").toStdString() : QFileInfo(path_).fileName().toStdString();
    cfg.source = source_->toPlainText().toStdString();
    cfg.haveSource = true;
    cfg.cancel = &cancel_;
    cfg.timeoutSeconds = 300;
    // Output is posted to the UI thread; the script never touches widgets.
    cfg.out = [this](const std::string& s) {
        QString q = QString::fromStdString(s);
        QMetaObject::invokeMethod(this, [this, q] { appendOutput(q, false); }, Qt::QueuedConnection);
    };
    cfg.err = [this](const std::string& s) {
        QString q = QString::fromStdString(s);
        QMetaObject::invokeMethod(this, [this, q] { appendOutput(q, true); }, Qt::QueuedConnection);
    };
    worker_ = std::thread([this, cfg] {
        script::RunResult r = script::runScript(cfg);
        QMetaObject::invokeMethod(this, [this, r] { finishRun(r.exitCode, r.errorLine, r.seconds); }, Qt::QueuedConnection);
    });
}

void MainWindow::cancel() {
    if (running_) cancel_.cancel();
}

void MainWindow::finishRun(int exitCode, int errorLine, double seconds) {
    running_ = false;
    runAct_->setEnabled(true);
    cancelAct_->setEnabled(false);
    source_->setErrorLine(errorLine);
    status_->setText(QString("%1 in %2 ms").arg(exitCode == 0 ? "Finished" : exitCode == 130 ? "Cancelled" : "Failed").arg(seconds * 1000.0, 0, 'f', 1));
    emit runFinished(exitCode);
}

void MainWindow::closeEvent(QCloseEvent* e) {
    cancel();
    if (worker_.joinable()) worker_.join();
    QSettings s;
    s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", saveState());
    e->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile() && u.toLocalFile().endsWith(".py")) { openFile(u.toLocalFile()); run(); break; }
}

} // namespace fl::app
