// The explorer window: the script (editable; graph breaks, recompiles and kernels marked on its
// lines) in the middle, and docks for the compiled graphs, guards and recompiles, kernels, the
// fusion stepper, timing and the script's output. Run executes the script in the background
// (progress, Cancel); at its end the run's snapshot fills every pane, and picks in one pane
// (a line, a node, a kernel line, a guard) select the matching things in the others.
#pragma once

#include <QMainWindow>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <thread>

#include "core/support/cancel.h"
#include "viz/panes.h"

class QPlainTextEdit;
class QLabel;
class QTreeWidget;
class QAction;
class QMenu;
class QDockWidget;
class QProgressBar;
class QComboBox;
class QLineEdit;

#include "viz/code_view.h"

namespace fl::viz { class TimingView; }
namespace fl::profiler { struct Profile; }

namespace fl::app {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    bool openFile(const QString& path);
    // A project folder: opens its entry script (`entry`, else main.py, else the only .py file,
    // else the user picks one); its modules import beside it.
    bool openFolder(const QString& dir, const QString& entry = QString());
    // The script's arguments (sys.argv[1:], as a shell would split the field's text).
    void setScriptArguments(const QString& args);
    // The Source pane's file: 0 the script, then the files the last run imported (read-only,
    // their graph breaks marked).
    QComboBox* fileBox() const { return fileBox_; }
    void showFile(int index);
    void openExample(const QString& resourcePath);
    void run();
    void cancel();
    bool isRunning() const { return running_; }
    // The script was edited since its last run: the panes show that run's results (and say so).
    bool resultsAreStale() const;
    QString outputText() const;
    fl::viz::CodeView* sourceView() const { return source_; }
    fl::viz::GraphsPane* graphsPane() const { return graphs_; }
    fl::viz::GuardsPane* guardsPane() const { return guards_; }
    QTreeWidget* problemsView() const { return problems_; }
    fl::viz::KernelsPane* kernelsPane() const { return kernels_; }
    fl::viz::FusionPane* fusionPane() const { return fusion_; }
    fl::viz::PartitionPane* partitionPane() const { return partition_; }
    fl::viz::TimingView* timingView() const { return timing_; }
    const inspect::Snapshot* snapshot() const { return snap_.get(); }
    // The widget of a pane by name: source, graph, guards, kernels, fusion, timing, output,
    // problems, partition (nullptr for another name).
    QWidget* pane(const QString& name) const;
    static QStringList paneNames();
    void raisePane(const QString& name);
    // Takes the pane out of the window into a floating window of `size` (pane screenshots).
    void floatPane(const QString& name, const QSize& size);
    // Linking: a script line picked (source click), a break / recompile mark picked, graph
    // nodes picked in the current entry.
    void selectLine(int line);
    void selectMark(int line);
    // Nodes of the graph the Graphs pane draws (the captured one, or a training graph).
    void selectNodes(const std::vector<int>& nodes, bool fromKernel = false);
    // A node clicked in the Graphs pane: a saved value of the backward selects the forward node it holds.
    void clickNode(int id);

    // Tests: called on the run thread each time capture hands a graph to the compiler, after the
    // window was sent what capture has so far (a test holds the compile there to look at the panes).
    void setBeforeCompile(std::function<void()> f) { beforeCompile_ = std::move(f); }

Q_SIGNALS:
    void runFinished(int exitCode);

protected:
    void closeEvent(QCloseEvent* e) override;
    void showEvent(QShowEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void buildMenus();
    void updateRecentMenu();
    void appendOutput(const QString& text, bool isError);
    void finishRun(int exitCode, int errorLine, double seconds);
    void clearResults(); // every pane back to "not run yet" (another file was opened)
    void setDocument(const QString& path, const QString& text);
    void applySnapshot(std::shared_ptr<const inspect::Snapshot> snap, std::function<void()> done);
    QList<fl::viz::LineMark> marksFor(const std::string& importedFile) const; // empty name: the script
    QList<fl::viz::LineMark> breakMarks(const std::string& importedFile) const;
    void fillFileBox();
    void updateStale();
    void entryChanged(int index);
    void showEntryInSource(int index); // its guards, and the script's lines tinted by its kernels
    QDockWidget* addPane(const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea area);

    fl::viz::CodeView* source_ = nullptr;
    QPlainTextEdit* output_ = nullptr;
    fl::viz::GraphsPane* graphs_ = nullptr;
    fl::viz::GuardsPane* guards_ = nullptr;
    fl::viz::KernelsPane* kernels_ = nullptr;
    fl::viz::FusionPane* fusion_ = nullptr;
    fl::viz::PartitionPane* partition_ = nullptr;
    fl::viz::TimingView* timing_ = nullptr;
    QTreeWidget* problems_ = nullptr; // what is wrong, and where: the run's problems
    QList<QDockWidget*> docks_;
    QLabel* status_ = nullptr;
    QLabel* note_ = nullptr;
    QLabel* stale_ = nullptr;       // "results are from the previous run" while the script is edited
    QString ranText_;               // the script's text at the last run (null: not run)
    QProgressBar* progress_ = nullptr;
    QAction* runAct_ = nullptr;
    QAction* cancelAct_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QString path_;
    QComboBox* fileBox_ = nullptr;  // the Source pane's file: the script or one it imported
    QLineEdit* argsEdit_ = nullptr; // the script's arguments
    QString scriptText_;            // the script's text while an imported file is shown
    std::shared_ptr<const inspect::Snapshot> snap_;
    CancelToken cancel_;
    std::thread worker_;
    std::atomic<bool> running_{false};
    int document_ = 0; // counts opened documents: a run's results and output land only in its own
    int runs_ = 0;     // counts runs: a partial snapshot lands only while its run is the latest
    bool applying_ = false;              // a snapshot is being handed to the panes, one per turn
    std::function<void()> whenApplied_;  // then this runs (the end of the run)
    bool problemsRaised_ = false;        // the Problems pane was raised for this run
    std::function<void()> beforeCompile_; // tests
    bool firstLayout_ = false;
};

} // namespace fl::app
