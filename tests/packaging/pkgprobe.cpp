// Loads, the way Settledesk and its tests do, what the program needs at run time beyond the libraries it
// links: the platform plugin, the SVG icon engine and image plugins, both SQL drivers, the TLS backend and
// the fonts a PDF report is drawn with. Then prints every file mapped into the process, one path a line,
// for scripts/check-packages, which requires each to come from a Debian package the install lists name.
#include <QApplication>
#include <QFile>
#include <QIcon>
#include <QImageReader>
#include <QPainter>
#include <QPdfWriter>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <QWidget>

#include <cstdio>
#include <set>

namespace {

const char Svg[] = "<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'>"
                   "<rect width='16' height='16' fill='#2a7'/></svg>";

int fail(const char *what)
{
    std::fprintf(stderr, "pkgprobe: %s\n", what);
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QTemporaryDir dir;
    if (!dir.isValid())
        return fail("no temporary directory");

    // Icons: the dashboard's icons are SVG files (QIcon -> the SVG icon engine -> the SVG image plugin).
    const QString iconPath = dir.filePath(QStringLiteral("icon.svg"));
    {
        QFile f(iconPath);
        if (!f.open(QIODevice::WriteOnly) || f.write(Svg) < 0)
            return fail("cannot write the icon");
    }
    if (QIcon(iconPath).pixmap(32, 32).isNull())
        return fail("the SVG icon engine did not render");
    QImageReader reader(iconPath);
    if (reader.read().isNull())
        return fail("the SVG image plugin did not read");
    (void)QImageReader::supportedImageFormats(); // every image plugin the platform offers

    // The embedded database and the driver of the shared one.
    {
        QSqlDatabase sqlite = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("probe-sqlite"));
        sqlite.setDatabaseName(QStringLiteral(":memory:"));
        if (!sqlite.open() || !QSqlQuery(QStringLiteral("SELECT 1"), sqlite).next())
            return fail("the SQLite driver did not open");
        QSqlDatabase pg = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("probe-psql"));
        if (!pg.isValid())
            return fail("the PostgreSQL driver is missing");
    }
    // HTTPS to wallets and rate sources: the TLS backend plugin.
    if (!QSslSocket::supportsSsl())
        return fail("no TLS backend");

    // A report page: text through fontconfig and a font file.
    {
        QPdfWriter pdf(dir.filePath(QStringLiteral("probe.pdf")));
        QPainter painter(&pdf);
        painter.drawText(QPointF(100, 100), QStringLiteral("Settledesk 0.050000000000 XMR"));
    }

    // A window, shown and painted once (platform theme, input context, the window system's libraries).
    QWidget window;
    window.resize(200, 100);
    window.show();
    QTimer::singleShot(200, &app, &QApplication::quit);
    app.exec();

    QFile maps(QStringLiteral("/proc/self/maps"));
    if (!maps.open(QIODevice::ReadOnly))
        return fail("cannot read /proc/self/maps");
    std::set<QString> files;
    for (const QByteArray &line : maps.readAll().split('\n')) {
        const int slash = line.indexOf('/');
        if (slash > 0)
            files.insert(QString::fromLocal8Bit(line.mid(slash)).remove(QStringLiteral(" (deleted)")));
    }
    QTextStream out(stdout);
    for (const QString &file : files)
        out << file << '\n';
    return 0;
}
