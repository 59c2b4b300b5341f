#include "mainwindow.h"

#include <QLabel>
#include <QStatusBar>

MainWindow::MainWindow(const QString &databaseDescription, QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle(tr("Settledesk"));
    auto *placeholder = new QLabel(tr("No invoices yet."), this);
    placeholder->setAlignment(Qt::AlignCenter);
    setCentralWidget(placeholder);
    statusBar()->showMessage(tr("Database: %1").arg(databaseDescription));
    resize(1100, 700);
}
