// Paints the countdown column, which repaints every second, from text pieces laid out once and cached.
#pragma once

#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QStringList>
#include <QStyledItemDelegate>

namespace sd::ui {

// The style's item painting lays the text out three times per cell (size, elision, drawing), and the
// countdown's text is new every second, so a cache of whole strings never hits. Here the text is cut into
// pieces that recur: every digit and ':' on its own, and each run of other characters whole (labels such as
// "· verifying network broadcast" or a state name stay the same for minutes). Each piece is shaped once
// (QStaticText) and a tick only places glyphs that are already laid out. Right-to-left layouts and text too
// wide for the cell are painted the standard way.
class CountdownDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // The pieces text is drawn from, in order (exposed for tests).
    static QStringList pieces(const QString &text);
    // How many pieces are laid out and kept (exposed for tests).
    qsizetype cachedPieces() const { return m_pieces.size(); }

private:
    const QStaticText &piece(const QString &text, const QFont &font) const;

    mutable QHash<QString, QStaticText> m_pieces;
    mutable QFont m_font;
};

} // namespace sd::ui
