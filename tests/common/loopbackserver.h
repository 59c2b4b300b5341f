// The accept loop of the raw test servers that stand in for a wallet or a node (tests/monero/faultserver.h,
// tests/chaos/privatewallet.h, bench/bench_poll.cpp): listen on a free loopback port and hand every socket's
// new bytes to the server's own reader. Sockets belong to `owner` and are deleted when the peer disconnects.
#pragma once

#include <QHostAddress>
#include <QObject>
#include <QTcpServer>
#include <QTcpSocket>

namespace sdtest {

// `onData(socket)` runs, in `owner`'s context, each time a socket has bytes to read.
template<typename OnData>
void serveLoopback(QTcpServer &server, QObject *owner, OnData onData)
{
    server.listen(QHostAddress::LocalHost, 0);
    QObject::connect(&server, &QTcpServer::newConnection, owner, [&server, owner, onData] {
        while (QTcpSocket *socket = server.nextPendingConnection()) {
            socket->setParent(owner);
            QObject::connect(socket, &QTcpSocket::readyRead, owner, [onData, socket] { onData(socket); });
            QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        }
    });
}

} // namespace sdtest
