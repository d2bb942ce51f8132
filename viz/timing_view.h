// The Timing pane: where compile time went and what cached calls cost, drawn from a plain
// profiler::Profile. A timeline (QPainter: wheel zooms around the cursor, drag pans, hovering a
// span shows its details) with one row per track: the script, each compile id (its phases side by
// side; compiled training's forward and backward compiles on rows of their own under it), the
// run's calls, its backward() runs and kernels, the profiler's replays; a kernel table for the
// chosen call; the summary "first call X ms (compile Y ms) vs cached Z ms, eager W ms: pays off
// after N calls", and for a training call its backward() cached against eager;
// Export writes the Trace Event JSON that Perfetto opens.
#pragma once

#include <QString>
#include <QWidget>

#include "profiler/profile.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace fl::viz {

// The timeline alone. Times in ms from the profile's origin.
class Timeline : public QWidget {
    Q_OBJECT
public:
    explicit Timeline(QWidget* parent = nullptr);
    void setProfile(const profiler::Profile& p);
    // The visible window [from, to] in ms; zoom and pan change it.
    double viewStart() const { return from_; }
    double viewEnd() const { return to_; }
    void setView(double from, double to);
    void zoom(double factor, double atMs);       // factor > 1 zooms in
    QStringList trackNames() const { return rows_; }
    // What an empty timeline says (setProfile puts back the default).
    void setEmptyText(const QString& text) { emptyText_ = text; update(); }
    // The details a hover at `pos` shows ("" when nothing is there).
    QString detailsAt(const QPoint& pos) const;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;

private:
    struct Item {
        int row = 0;
        double start = 0, ms = 0;
        QString name, details;
        QString category;
        bool instant = false;
        bool isBreak = false; // an instant that is a graph break (drawn red), else a recompile
    };
    double xOf(double ms) const;
    double msOf(double x) const;
    int rowTop(int row) const;
    int labelWidth() const { return 150; }
    const Item* itemAt(const QPoint& pos) const;

    QStringList rows_;
    QString emptyText_ = "No profile yet: run a script with the profiler.";
    std::vector<Item> items_;
    double from_ = 0, to_ = 1, total_ = 1;
    bool dragging_ = false;
    QPoint dragFrom_;
    double dragStart_ = 0;
};

class TimingView : public QWidget {
    Q_OBJECT
public:
    explicit TimingView(QWidget* parent = nullptr);
    void setProfile(const profiler::Profile& p);
    // No profile yet, and why: "Compiling kernels… (graph 1 of 1 captured so far)".
    void setPending(const QString& why);
    // Writes the Trace Event JSON of the profile shown; false (and a message in lastError) on failure.
    bool exportTrace(const QString& path);
    QString lastError() const { return error_; }
    QString summaryText() const;
    Timeline* timeline() const { return timeline_; }
    QTableWidget* kernelTable() const { return table_; }
    QComboBox* callChooser() const { return calls_; }

private Q_SLOTS:
    void showCall(int index);
    void exportClicked();

private:
    profiler::Profile profile_;
    Timeline* timeline_;
    QComboBox* calls_;
    QLabel* summary_;
    QTableWidget* table_;
    QPushButton* export_;
    QString error_;
};

} // namespace fl::viz
