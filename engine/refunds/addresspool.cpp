#include "addresspool.h"

#include "addressvalidator.h"

#include <QIODevice>
#include <QTextStream>

namespace sd {

AddressPoolFile readAddressPool(const QString &asset, QIODevice &device)
{
    AddressPoolFile pool;
    QTextStream in(&device);
    for (int lineNo = 1; !in.atEnd(); ++lineNo) {
        const QString line = in.readLine().trimmed();
        if (line.isEmpty() || line.startsWith(u'#'))
            continue;
        const AddressVerdict verdict = validateAddress(asset, line);
        if (!verdict.valid)
            pool.problems.append({AddressPoolProblem::Invalid, lineNo, line.left(80), verdict.error});
        else if (line.mid(2).count(u'0') == 40)
            pool.problems.append({AddressPoolProblem::ZeroAddress, lineNo, line.left(80), {}});
        else
            pool.addresses << eip55Checksummed(line); // one spelling, whatever case the list used
    }
    return pool;
}

} // namespace sd
