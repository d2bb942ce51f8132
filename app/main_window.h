// The explorer window. Today: the source (editable, errors marked) and the script's output,
// with Run/Cancel in the background. Graph, guard, kernel, fusion and timing panes join as the
// capture and compiler layers land.
#pragma once

#include <QMainWindow>
#include <QString>
#include <atomic>
#include <memory>
#include <thread>

#include "core/support/cancel.h"

class QPlainTextEdit;
class QLabel;
class QAction;
class QMenu;

namespace fl::viz { class CodeView; }

namespace fl::app {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    bool openFile(const QString& path);
    void openExample(const QString& resourcePath);
    void run();
    void cancel();
    bool isRunning() const { return running_; }
    QString outputText() const;
    fl::viz::CodeView* sourceView() const { return source_; }

signals:
    void runFinished(int exitCode);

protected:
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void buildMenus();
    void updateRecentMenu();
    void appendOutput(const QString& text, bool isError);
    void finishRun(int exitCode, int errorLine, double seconds);
    void setDocument(const QString& path, const QString& text);

    fl::viz::CodeView* source_ = nullptr;
    QPlainTextEdit* output_ = nullptr;
    QLabel* status_ = nullptr;
    QAction* runAct_ = nullptr;
    QAction* cancelAct_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QString path_;
    CancelToken cancel_;
    std::thread worker_;
    std::atomic<bool> running_{false};
};

} // namespace fl::app
