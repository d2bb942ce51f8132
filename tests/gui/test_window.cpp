// The window on the offscreen platform: examples open, Run executes in the background and fills
// the output pane, an error marks its line, Cancel stops a run, and the window paints real pixels.
#include <QtTest>

#include <QApplication>
#include <QImage>
#include <QPlainTextEdit>

#include "app/main_window.h"
#include "viz/code_view.h"

class TestWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("FuselabTest");
        QCoreApplication::setApplicationName("FuselabTest");
    }
    void seedExampleRunsAndPrints() {
        fl::app::MainWindow w;
        w.openExample(":/models/seed.py");
        QVERIFY(w.sourceView()->toPlainText().contains("torch.compile(model)"));
        QSignalSpy done(&w, &fl::app::MainWindow::runFinished);
        w.run();
        QVERIFY(done.wait(60000));
        QCOMPARE(done.takeFirst().at(0).toInt(), 0);
        QCOMPARE(w.outputText(), QString("True\ntorch.Size([4])\n"));
    }
    void errorMarksItsLine() {
        fl::app::MainWindow w;
        w.sourceView()->setPlainText("x = 1\ny = x / 0\n");
        QSignalSpy done(&w, &fl::app::MainWindow::runFinished);
        w.run();
        QVERIFY(done.wait(30000));
        QCOMPARE(done.takeFirst().at(0).toInt(), 1);
        QCOMPARE(w.sourceView()->errorLine(), 2);
        QVERIFY(w.outputText().contains("ZeroDivisionError"));
    }
    void cancelStopsALongRun() {
        fl::app::MainWindow w;
        w.sourceView()->setPlainText("while True:\n    pass\n");
        QSignalSpy done(&w, &fl::app::MainWindow::runFinished);
        w.run();
        QTest::qWait(200);
        QVERIFY(w.isRunning());
        w.cancel();
        QVERIFY(done.wait(10000));
        QCOMPARE(done.takeFirst().at(0).toInt(), 130);
    }
    void windowPaintsRealPixels() {
        fl::app::MainWindow w;
        w.openExample(":/models/seed.py");
        w.resize(900, 600);
        w.show();
        QImage img = w.grab().toImage();
        QVERIFY(img.width() > 100 && img.height() > 100);
        QSet<QRgb> colours;
        for (int y = 0; y < img.height(); y += 7)
            for (int x = 0; x < img.width(); x += 7) colours.insert(img.pixel(x, y));
        QVERIFY2(colours.size() > 8, "the window should draw text and chrome, not one flat colour");
    }
};

QTEST_MAIN(TestWindow)
#include "test_window.moc"
