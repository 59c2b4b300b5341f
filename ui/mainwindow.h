// The dashboard's main window.
#pragma once

#include <QMainWindow>

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(const QString &databaseDescription, QWidget *parent = nullptr);
};
