<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>CheckWords</name>
    <message>
        <location filename="../ui/checktext.cpp" line="+13"/>
        <source>the server</source>
        <translation>der Server</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 (RPC %2)</source>
        <translation>%1 (RPC %2)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>account %1</source>
        <translation>Konto %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+50"/>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <location line="-48"/>
        <source>wallet &quot;%1&quot;</source>
        <translation>Wallet „%1“</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>chain %1</source>
        <translation>Chain %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>height %1</source>
        <translation>Höhe %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>monerod at %1 (height %2)</source>
        <translation>monerod unter %1 (Höhe %2)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>balance %1</source>
        <translation>Guthaben %1</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>token with %n decimals</source>
        <translation>
            <numerusform>Token mit %n Dezimalstelle</numerusform>
            <numerusform>Token mit %n Dezimalstellen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>token %1 with %n decimals</source>
        <translation>
            <numerusform>Token %1 mit %n Dezimalstelle</numerusform>
            <numerusform>Token %1 mit %n Dezimalstellen</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>view-only: refunds will be manual payouts</source>
        <translation>nur Ansicht: Erstattungen werden manuelle Auszahlungen</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+38"/>
        <source>connected: %1</source>
        <translation>verbunden: %1</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>; but monerod at %1 cannot be reached: no payment is recorded until [xmr] daemon_rpc_url names a reachable monerod</source>
        <translation>; aber monerod unter %1 ist nicht erreichbar: Es werden keine Zahlungen erfasst, bis [xmr] daemon_rpc_url einen erreichbaren monerod nennt</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>empty: Settledesk will create its tables</source>
        <translation>leer: Settledesk legt seine Tabellen an</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>schema version %1: Settledesk will update it to %2</source>
        <translation>Schema-Version %1: Settledesk aktualisiert sie auf %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>schema version %1 (current)</source>
        <translation>Schema-Version %1 (aktuell)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>a new SQLite database will be created at %1</source>
        <translation>eine neue SQLite-Datenbank wird unter %1 angelegt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SQLite database %1, %2</source>
        <translation>SQLite-Datenbank %1, %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>encrypted</source>
        <translation>verschlüsselt</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>encrypted (%1)</source>
        <translation>verschlüsselt (%1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>NOT encrypted: add ?sslmode=require unless the server is on this computer</source>
        <translation>NICHT verschlüsselt: ?sslmode=require anfügen, außer der Server läuft auf diesem Computer</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>1 %1 = %2 %3 from %4, priced %5</source>
        <translation>1 %1 = %2 %3 von %4, Kurs %5</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>connection refused on %1</source>
        <translation>Verbindung abgelehnt auf %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>host not found: %1</source>
        <translation>Host nicht gefunden: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no answer from %1 in time</source>
        <translation>keine rechtzeitige Antwort von %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TLS certificate not trusted</source>
        <translation>TLS-Zertifikat nicht vertrauenswürdig</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TLS could not be set up with %1</source>
        <translation>TLS mit %1 konnte nicht aufgebaut werden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the server offers no TLS, but the connection requires it</source>
        <translation>der Server bietet kein TLS an, die Verbindung verlangt es aber</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>wrong password (digest authentication refused)</source>
        <translation>falsches Passwort (Digest-Anmeldung abgelehnt)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>wrong user or password (%1 refused the login)</source>
        <translation>falscher Benutzer oder falsches Passwort (%1 hat die Anmeldung abgelehnt)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 wants a login: enter the RPC user and password</source>
        <translation>%1 verlangt eine Anmeldung: RPC-Benutzer und Passwort eingeben</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>this is a %1 wallet but the configuration says %2</source>
        <translation>dies ist eine %1-Wallet, die Konfiguration sagt aber %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 answers, but it is not %2</source>
        <translation>%1 antwortet, ist aber nicht %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>monero-wallet-rpc runs without a wallet open (start it with --wallet-file)</source>
        <translation>monero-wallet-rpc läuft ohne geöffnete Wallet (mit --wallet-file starten)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 has no wallet loaded at this URL (load it, or name it: /wallet/NAME)</source>
        <translation>%1 hat unter dieser URL keine Wallet geladen (laden oder benennen: /wallet/NAME)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the wallet has no account %1</source>
        <translation>die Wallet hat kein Konto %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the database does not exist on the server (create it first)</source>
        <translation>die Datenbank existiert auf dem Server nicht (zuerst anlegen)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>written by a newer Settledesk (schema version %1, this one knows %2): upgrade Settledesk</source>
        <translation>von einem neueren Settledesk geschrieben (Schema-Version %1, dieses kennt %2): Settledesk aktualisieren</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>this is not a Settledesk database (it holds other data)</source>
        <translation>dies ist keine Settledesk-Datenbank (sie enthält andere Daten)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot write there</source>
        <translation>dort kann nicht geschrieben werden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the token contract is not a %1 token</source>
        <translation>der Token-Vertrag ist kein %1-Token</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no usable rate</source>
        <translation>kein verwendbarer Kurs</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no usable rate: %1</source>
        <translation>kein verwendbarer Kurs: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 answered with an error</source>
        <translation>%1 hat mit einem Fehler geantwortet</translation>
    </message>
</context>
<context>
    <name>DisplayText</name>
    <message>
        <location filename="../ui/displaytext.cpp" line="+52"/>
        <source>Awaiting payment</source>
        <translation>Zahlung ausstehend</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Partially paid</source>
        <translation>Teilweise bezahlt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Confirming</source>
        <translation>Wird bestätigt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Settled</source>
        <translation>Beglichen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Underpaid, expired</source>
        <translation>Unterbezahlt, abgelaufen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expired</source>
        <translation>Abgelaufen</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Open: nothing has arrived yet.</source>
        <translation>Offen: Es ist noch nichts eingegangen.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open: part of the amount has arrived.</source>
        <translation>Offen: Ein Teil des Betrags ist eingegangen.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Paid in full in time; waiting for the confirmations the asset requires.</source>
        <translation>Rechtzeitig vollständig bezahlt; wartet auf die Bestätigungen, die das Asset verlangt.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paid and confirmed. The order can be fulfilled.</source>
        <translation>Bezahlt und bestätigt. Die Bestellung kann ausgeliefert werden.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Closed with too little received. The money received is in the refund queue.</source>
        <translation>Mit zu geringem Zahlungseingang geschlossen. Das erhaltene Geld liegt in der Erstattungswarteschlange.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Closed: nothing arrived before the hard boundary.</source>
        <translation>Geschlossen: Vor der Endfrist ist nichts eingegangen.</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Counted</source>
        <translation>Angerechnet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reversed</source>
        <translation>Rückgängig gemacht</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>In refund queue</source>
        <translation>In der Erstattungswarteschlange</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Late</source>
        <translation>Verspätet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Underpaid</source>
        <translation>Unterbezahlt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Overpaid</source>
        <translation>Überbezahlt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unmatched</source>
        <translation>Nicht zugeordnet</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Arrived after the invoice&apos;s hard boundary.</source>
        <translation>Nach der Endfrist der Rechnung eingegangen.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The invoice closed with too little received.</source>
        <translation>Die Rechnung wurde mit zu geringem Zahlungseingang geschlossen.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paid more than the amount due (beyond the dust tolerance).</source>
        <translation>Mehr als den fälligen Betrag bezahlt (über die Kleinstbetrags-Toleranz hinaus).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paid to an address that belongs to no invoice.</source>
        <translation>An eine Adresse gezahlt, die zu keiner Rechnung gehört.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The engine was not running before %1: this payment may have been sent in time. Apply it to its invoice if the customer paid in time.</source>
        <translation>Die Engine lief vor %1 nicht: Diese Zahlung wurde vielleicht rechtzeitig gesendet. Wenden Sie sie auf ihre Rechnung an, wenn der Kunde rechtzeitig bezahlt hat.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The engine was not running from %1 to %2: this payment may have been sent in time. Apply it to its invoice if the customer paid in time.</source>
        <translation>Die Engine lief von %1 bis %2 nicht: Diese Zahlung wurde vielleicht rechtzeitig gesendet. Wenden Sie sie auf ihre Rechnung an, wenn der Kunde rechtzeitig bezahlt hat.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Pending</source>
        <translation>Offen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refunding</source>
        <translation>Wird erstattet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refunded</source>
        <translation>Erstattet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Applied to order</source>
        <translation>Der Bestellung angerechnet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dismissed</source>
        <translation>Verworfen</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>ready</source>
        <translation>bereit</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>nothing left to refund</source>
        <translation>nichts mehr zu erstatten</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>time-locked until block %1</source>
        <translation>zeitgesperrt bis Block %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>time-locked until %1</source>
        <translation>zeitgesperrt bis %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waiting for confirmations (%1 of %2)</source>
        <translation>wartet auf Bestätigungen (%1 von %2)</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1: held %2 · returned %3 (network fees %4) · kept by decision %5 · kept %6 · open %7</source>
        <translation>%1: gehalten %2 · erstattet %3 (Netzwerkgebühren %4) · per Entscheidung behalten %5 · behalten %6 · offen %7</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>degraded</source>
        <translation>eingeschränkt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>down</source>
        <translation>ausgefallen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>standby</source>
        <translation>Bereitschaft</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>syncing</source>
        <translation>synchronisiert sich</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Monero</source>
        <translation>Monero</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Bitcoin</source>
        <translation>Bitcoin</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tether USD (ERC-20)</source>
        <translation>Tether USD (ERC-20)</translation>
    </message>
    <message numerus="yes">
        <location line="+34"/>
        <source>%n s ago</source>
        <translation>
            <numerusform>vor %n s</numerusform>
            <numerusform>vor %n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n min ago</source>
        <translation>
            <numerusform>vor %n min</numerusform>
            <numerusform>vor %n min</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n h ago</source>
        <translation>
            <numerusform>vor %n h</numerusform>
            <numerusform>vor %n h</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n d ago</source>
        <translation>
            <numerusform>vor %n Tag</numerusform>
            <numerusform>vor %n Tagen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/main.cpp" line="+53"/>
        <source>Test network</source>
        <translation>Testnetz</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Starting the test network…</source>
        <translation>Das Testnetz startet …</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The test network did not start: %1</source>
        <translation>Das Testnetz ist nicht gestartet: %1</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Pay late</source>
        <translation>Verspätet zahlen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pay in full</source>
        <translation>Vollständig zahlen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pay part</source>
        <translation>Teilweise zahlen</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The test customer&apos;s refund address has received %1 XMR</source>
        <translation>Die Erstattungsadresse des Testkunden hat %1 XMR erhalten</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Crypto invoice settlement dashboard</source>
        <translation>Übersicht für die Abrechnung von Krypto-Rechnungen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Interface language (e.g. de).</source>
        <translation>Sprache der Oberfläche (z. B. en).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Configuration file.</source>
        <translation>Konfigurationsdatei.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Database URL.</source>
        <translation>Datenbank-URL.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Try it without money: a private Monero test network in the data directory (settledesk demo stop|reset).</source>
        <translation>Ohne Geld ausprobieren: ein privates Monero-Testnetz im Datenverzeichnis (settledesk demo stop|reset).</translation>
    </message>
</context>
<context>
    <name>sd::DemoNetwork</name>
    <message>
        <location filename="../app/demonetwork.cpp" line="+82"/>
        <source>Test network (no real money)</source>
        <translation>Testnetz (kein echtes Geld)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The test network needs %1, which is in Debian&apos;s &quot;monero&quot; package: sudo apt-get install monero (scripts/run --demo installs it).</source>
        <translation>Das Testnetz braucht %1 aus Debians Paket „monero“: sudo apt-get install monero (scripts/run --demo installiert es).</translation>
    </message>
    <message>
        <location line="+114"/>
        <source>%1 exited while starting; its log is in %2</source>
        <translation>%1 hat sich beim Start beendet; sein Protokoll liegt in %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 did not answer within 60 s: %2</source>
        <translation>%1 hat nicht innerhalb von 60 s geantwortet: %2</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>no free TCP port on 127.0.0.1</source>
        <translation>kein freier TCP-Port auf 127.0.0.1</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>%1 could not be started: %2</source>
        <translation>%1 konnte nicht gestartet werden: %2</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>the %1 test wallet could not be opened: %2</source>
        <translation>das Test-Wallet %1 konnte nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>mining failed: %1</source>
        <translation>Mining fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Mining the first %1 blocks…</source>
        <translation>Die ersten %1 Blöcke werden gemint …</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Waiting for the customer&apos;s test coins to unlock…</source>
        <translation>Warten, bis die Testmünzen des Kunden freigegeben sind …</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>the customer&apos;s test coins did not unlock</source>
        <translation>die Testmünzen des Kunden wurden nicht freigegeben</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Starting the test network…</source>
        <translation>Das Testnetz startet …</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Opening the test wallets…</source>
        <translation>Die Test-Wallets werden geöffnet …</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>%1 could not be deleted</source>
        <translation>%1 konnte nicht gelöscht werden</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>the payment %1 was not relayed by the test network&apos;s monerod</source>
        <translation>die Zahlung %1 wurde vom monerod des Testnetzes nicht weitergeleitet</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>the customer&apos;s test wallet could not pay: %1</source>
        <translation>das Test-Wallet des Kunden konnte nicht zahlen: %1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1: %2 XMR sent by the test customer (transaction %3…)</source>
        <translation>%1: %2 XMR vom Testkunden gesendet (Transaktion %3 …)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1: the test customer pays in %2 s, after the invoice&apos;s window closed</source>
        <translation>%1: der Testkunde zahlt in %2 s, nachdem das Fenster der Rechnung geschlossen ist</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Block %1 mined on the test network</source>
        <translation>Block %1 im Testnetz gemint</translation>
    </message>
</context>
<context>
    <name>sd::ReportExportDialog</name>
    <message>
        <location filename="../ui/reportexportdialog.cpp" line="+65"/>
        <source>Export settlement report</source>
        <translation>Abrechnungsbericht exportieren</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>All assets</source>
        <translation>Alle Assets</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>All states</source>
        <translation>Alle Status</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Awaiting payment</source>
        <translation>Zahlung ausstehend</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Partially paid</source>
        <translation>Teilweise bezahlt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Confirming</source>
        <translation>Wird bestätigt</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Settled</source>
        <translation>Beglichen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Underpaid, expired</source>
        <translation>Unterbezahlt, abgelaufen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Expired</source>
        <translation>Abgelaufen</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>CSV (spreadsheets, accounting)</source>
        <translation>CSV (Tabellenkalkulation, Buchhaltung)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PDF (printable summary and table)</source>
        <translation>PDF (druckbare Zusammenfassung und Tabelle)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Browse…</source>
        <translation>Durchsuchen …</translation>
    </message>
    <message>
        <location line="-64"/>
        <source>Invoices are selected by the day they were created (UTC); both days are included.</source>
        <translation>Rechnungen werden nach ihrem Erstellungstag (UTC) ausgewählt; beide Tage sind eingeschlossen.</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>From:</source>
        <translation>Von:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>To:</source>
        <translation>Bis:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Asset:</source>
        <translation>Asset:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State:</source>
        <translation>Status:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Format:</source>
        <translation>Format:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File:</source>
        <translation>Datei:</translation>
    </message>
    <message>
        <location line="-70"/>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>Save settlement report</source>
        <translation>Abrechnungsbericht speichern</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PDF files (*.pdf)</source>
        <translation>PDF-Dateien (*.pdf)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Cannot export: %1</source>
        <translation>Export nicht möglich: %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Choose the file to write.</source>
        <translation>Wählen Sie die Datei, in die geschrieben werden soll.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Replace file?</source>
        <translation>Datei ersetzen?</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 exists. Replace it?</source>
        <translation>%1 existiert bereits. Ersetzen?</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Exporting…</source>
        <translation>Wird exportiert …</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen …</translation>
    </message>
    <message numerus="yes">
        <location line="+24"/>
        <source>Wrote %n invoice(s) to %1.</source>
        <translation>
            <numerusform>%n Rechnung nach %1 geschrieben.</numerusform>
            <numerusform>%n Rechnungen nach %1 geschrieben.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Export cancelled; no file was written.</source>
        <translation>Export abgebrochen; es wurde keine Datei geschrieben.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Export failed: %1</source>
        <translation>Export fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
</context>
<context>
    <name>sd::ui::ApiKeysDialog</name>
    <message>
        <location filename="../ui/apikeysdialog.cpp" line="+30"/>
        <source>create invoices</source>
        <translation>Rechnungen erstellen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>read invoices</source>
        <translation>Rechnungen lesen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mark invoices settled or invalid</source>
        <translation>Rechnungen als bezahlt oder ungültig markieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>manage webhooks</source>
        <translation>Webhooks verwalten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>read the store</source>
        <translation>den Shop lesen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>everything of the store</source>
        <translation>alles im Shop</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+41"/>
        <source>API keys</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <location line="-39"/>
        <source>Keys let a shop use the merchant API (Authorization: token KEY). A key is shown once, when it is created; Settledesk keeps only its hash.</source>
        <translation>Mit Schlüsseln nutzt ein Shop die Händler-API (Authorization: token SCHLÜSSEL). Ein Schlüssel wird einmal gezeigt, wenn er erstellt wird; Settledesk behält nur seinen Hash.</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Permissions</source>
        <translation>Berechtigungen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Revoke selected key</source>
        <translation>Gewählten Schlüssel &amp;widerrufen</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>New key</source>
        <translation>Neuer Schlüssel</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>e.g. web shop</source>
        <translation>z. B. Webshop</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Label:</source>
        <translation>&amp;Bezeichnung:</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Permissions:</source>
        <translation>Berechtigungen:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Create key</source>
        <translation>Schlüssel &amp;erstellen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the new key appears here, once</source>
        <translation>der neue Schlüssel erscheint hier, einmal</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New API key</source>
        <translation>Neuer API-Schlüssel</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Co&amp;py</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>New key:</source>
        <translation>Neuer Schlüssel:</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Give the key a label: it names the key in lists and in the audit log.</source>
        <translation>Geben Sie dem Schlüssel eine Bezeichnung: Sie benennt ihn in Listen und im Prüfprotokoll.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose at least one permission.</source>
        <translation>Wählen Sie mindestens eine Berechtigung.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Revoke API key</source>
        <translation>API-Schlüssel widerrufen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revoke the key &quot;%1&quot; (%2…)? Requests with it are refused at once.</source>
        <translation>Den Schlüssel „%1“ (%2…) widerrufen? Anfragen mit ihm werden sofort abgewiesen.</translation>
    </message>
    <message>
        <location line="-83"/>
        <source>Copied. Put it into the shop&apos;s settings now: it is not shown again.</source>
        <translation>Kopiert. Tragen Sie ihn jetzt in die Einstellungen des Shops ein: Er wird nicht noch einmal gezeigt.</translation>
    </message>
    <message>
        <location line="+100"/>
        <source>revoked</source>
        <translation>widerrufen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>valid</source>
        <translation>gültig</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>revoked %1</source>
        <translation>widerrufen %1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Key &quot;%1&quot; created. Copy it now: it is shown only this once.</source>
        <translation>Schlüssel „%1“ erstellt. Kopieren Sie ihn jetzt: Er wird nur dieses eine Mal gezeigt.</translation>
    </message>
</context>
<context>
    <name>sd::ui::ConnectionTestRow</name>
    <message>
        <location filename="../ui/connectiontestrow.cpp" line="+17"/>
        <source>&amp;Test</source>
        <translation>&amp;Testen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Connect with the values in this form (nothing is saved)</source>
        <translation>Mit den Werten dieses Formulars verbinden (nichts wird gespeichert)</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Testing…</source>
        <translation>Teste…</translation>
    </message>
</context>
<context>
    <name>sd::ui::CustomerDisplay</name>
    <message>
        <location filename="../ui/customerdisplay.cpp" line="+29"/>
        <source>Customer display</source>
        <translation>Kundenanzeige</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Welcome</source>
        <translation>Willkommen</translation>
    </message>
    <message>
        <location line="+141"/>
        <source>Thank you!</source>
        <translation>Vielen Dank!</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your payment of %1 is confirmed.</source>
        <translation>Ihre Zahlung von %1 ist bestätigt.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Your payment arrived too late</source>
        <translation>Ihre Zahlung kam zu spät an</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>It arrived after the window closed; we have been told and will settle it with you.</source>
        <translation>Sie kam nach Ablauf der Frist an; wir wissen davon und klären das mit Ihnen.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not paid in full</source>
        <translation>Nicht vollständig bezahlt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The time ran out with %1 of %2 received. We will settle the difference with you.</source>
        <translation>Die Frist ist abgelaufen, als %1 von %2 eingegangen waren. Wir klären den Rest mit Ihnen.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This invoice has closed</source>
        <translation>Diese Rechnung ist geschlossen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Please do not send money to it. Ask for a new invoice if you still want to pay.</source>
        <translation>Bitte senden Sie kein Geld mehr daran. Bitten Sie um eine neue Rechnung, wenn Sie noch bezahlen möchten.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Please pay</source>
        <translation>Bitte bezahlen Sie</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Please pay · order %1</source>
        <translation>Bitte bezahlen Sie · Bestellung %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Price: %1</source>
        <translation>Preis: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 of %2 %3 received: pay the remaining %4 %3</source>
        <translation>%1 von %2 %3 erhalten: Bitte zahlen Sie die restlichen %4 %3</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Order %1</source>
        <translation>Bestellung %1</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Pay within %1</source>
        <translation>Zahlen innerhalb von %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Part of the payment has arrived.</source>
        <translation>Ein Teil der Zahlung ist eingegangen.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Scan the code with your wallet.</source>
        <translation>Scannen Sie den Code mit Ihrer Wallet.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Verifying network broadcast · %1</source>
        <translation>Netzwerkübertragung wird geprüft · %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The time to pay is over. A payment already sent is being verified; please do not send it again.</source>
        <translation>Die Zahlungsfrist ist abgelaufen. Eine bereits gesendete Zahlung wird geprüft; bitte senden Sie sie nicht noch einmal.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Verifying network broadcast…</source>
        <translation>Netzwerkübertragung wird geprüft …</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Payment detected</source>
        <translation>Zahlung erkannt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Waiting for confirmations (%1 of %2)</source>
        <translation>Warte auf Bestätigungen (%1 von %2)</translation>
    </message>
</context>
<context>
    <name>sd::ui::DashboardController</name>
    <message>
        <location filename="../ui/dashboardcontroller.cpp" line="+55"/>
        <source>Refund queue</source>
        <translation>Erstattungen</translation>
    </message>
</context>
<context>
    <name>sd::ui::DeliveryTableModel</name>
    <message>
        <location filename="../ui/webhookmodels.cpp" line="+155"/>
        <source>delivered</source>
        <translation>zugestellt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>given up</source>
        <translation>aufgegeben</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sending</source>
        <translation>wird gesendet</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>retrying</source>
        <translation>wird wiederholt</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 (redelivery)</source>
        <translation>%1 (erneute Zustellung)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Delivery %1 to %2</source>
        <translation>Zustellung %1 an %2</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invoice</source>
        <translation>Rechnung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTTP</source>
        <translation>HTTP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next attempt</source>
        <translation>Nächster Versuch</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last error</source>
        <translation>Letzter Fehler</translation>
    </message>
</context>
<context>
    <name>sd::ui::HealthIndicator</name>
    <message>
        <location filename="../ui/healthindicator.cpp" line="+39"/>
        <source>Database: %1</source>
        <translation>Datenbank: %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Database unreachable</source>
        <translation>Datenbank nicht erreichbar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The database cannot be reached: %1</source>
        <translation>Die Datenbank ist nicht erreichbar: %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · height %1</source>
        <translation> · Höhe %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · polled %1</source>
        <translation> · abgefragt %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Wallet backend %1</source>
        <translation>Wallet-Backend %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Last successful poll: %1</source>
        <translation>Letzte erfolgreiche Abfrage: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Another engine on this database polls this wallet; this one takes over if it stops.</source>
        <translation>Eine andere Engine dieser Datenbank fragt diese Wallet ab; diese übernimmt, wenn jene stoppt.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The wallet or its node is catching up: until it has, no payment of this asset is reversed and no invoice expires.</source>
        <translation>Die Wallet oder ihr Knoten holt auf: Bis dahin wird keine Zahlung dieses Assets zurückgebucht und keine Rechnung läuft ab.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Last error: %1</source>
        <translation>Letzter Fehler: %1</translation>
    </message>
</context>
<context>
    <name>sd::ui::InvoiceDetailWidget</name>
    <message>
        <location filename="../ui/invoicedetailwidget.cpp" line="+97"/>
        <source>Select an invoice to see its address, deposits and history.</source>
        <translation>Wählen Sie eine Rechnung, um Adresse, Einzahlungen und Verlauf zu sehen.</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Copy address</source>
        <translation>Adresse kopieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy link</source>
        <translation>Link kopieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the payment link (with the amount still due)</source>
        <translation>Den Zahlungslink kopieren (mit dem noch fälligen Betrag)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>QR code</source>
        <translation>QR-Code</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the payment QR code for the customer</source>
        <translation>Den Zahlungs-QR-Code für den Kunden zeigen</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Show to customer</source>
        <translation>Dem Kunden zeigen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Follow this invoice on the customer display (settings: which screen)</source>
        <translation>Diese Rechnung auf der Kundenanzeige verfolgen (Einstellungen: welcher Bildschirm)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Test network: no real money</source>
        <translation>Testnetz: kein echtes Geld</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Pay in full</source>
        <translation>Vollständig zahlen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The test customer pays what is still due</source>
        <translation>Der Testkunde zahlt, was noch fällig ist</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pay part</source>
        <translation>Teilweise zahlen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The test customer pays half of what is still due; pay the rest before the hard boundary</source>
        <translation>Der Testkunde zahlt die Hälfte des noch Fälligen; den Rest vor der Endfrist zahlen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pay late</source>
        <translation>Verspätet zahlen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The test customer pays the full amount once the hard boundary has passed: late money for the refund queue</source>
        <translation>Der Testkunde zahlt den vollen Betrag nach der Endfrist: verspätetes Geld für die Erstattungen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mine a block</source>
        <translation>Einen Block minen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The test network also mines a block every few seconds by itself</source>
        <translation>Das Testnetz mint außerdem von selbst alle paar Sekunden einen Block</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Refund to</source>
        <translation>Erstatten an</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The test customer&apos;s address for refunds: paste it when you approve one</source>
        <translation>Die Adresse des Testkunden für Erstattungen: beim Freigeben einer Erstattung einfügen</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Price</source>
        <translation>Preis</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Amount due</source>
        <translation>Fälliger Betrag</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Received</source>
        <translation>Erhalten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Balance</source>
        <translation>Saldo</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dust tolerance</source>
        <translation>Kleinstbetrags-Toleranz</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+12"/>
        <source>Confirmations</source>
        <translation>Bestätigungen</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Quote ends</source>
        <translation>Angebot endet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hard boundary</source>
        <translation>Endfrist</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Settled / closed</source>
        <translation>Beglichen / geschlossen</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Deposits</source>
        <translation>Einzahlungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Transaction</source>
        <translation>Transaktion</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+15"/>
        <source>Amount</source>
        <translation>Betrag</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>First seen</source>
        <translation>Zuerst gesehen</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+15"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Copy transaction ID</source>
        <translation>Transaktions-ID kopieren</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Refund items</source>
        <translation>Erstattungsposten</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Item</source>
        <translation>Posten</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cause</source>
        <translation>Ursache</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Order %1</source>
        <translation>Bestellung %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Invoice #%1</source>
        <translation>Rechnung Nr. %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Order %1 (invoice #%2)</source>
        <translation>Bestellung %1 (Rechnung Nr. %2)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>priced in %1</source>
        <translation>in %1 ausgepreist</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 at %2 %3 per %4</source>
        <translation>%1 zum Kurs von %2 %3 je %4</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>paid exactly</source>
        <translation>genau bezahlt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 over</source>
        <translation>%1 zu viel</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 outstanding</source>
        <translation>%1 ausstehend</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n required</source>
        <translation>
            <numerusform>%n erforderlich</numerusform>
            <numerusform>%n erforderlich</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>settled %1</source>
        <translation>beglichen %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>closed %1</source>
        <translation>geschlossen %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>open</source>
        <translation>offen</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1
output %2</source>
        <translation>%1
Ausgang %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>0 (in mempool)</source>
        <translation>0 (im Mempool)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Quote valid for %1</source>
        <translation>Angebot gültig für %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Quote lapsed · verifying network broadcast: %1 left</source>
        <translation>Angebot abgelaufen · Netzwerkübertragung wird geprüft: noch %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Hard boundary passed · closing…</source>
        <translation>Endfrist überschritten · wird geschlossen …</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Address copied</source>
        <translation>Adresse kopiert</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Payment link copied</source>
        <translation>Zahlungslink kopiert</translation>
    </message>
</context>
<context>
    <name>sd::ui::InvoiceTableModel</name>
    <message>
        <location filename="../ui/invoicetablemodel.cpp" line="+57"/>
        <source>Closing…</source>
        <translation>Wird geschlossen …</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 of %2 confirmations</source>
        <translation>%1 von %2 Bestätigungen</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>#%1</source>
        <translation>Nr. %1</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Invoice #%1</source>
        <translation>Rechnung Nr. %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Priced in %1</source>
        <translation>In %1 ausgepreist</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rate: %1 %2 per %3</source>
        <translation>Kurs: %1 %2 je %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Received %1 of %2</source>
        <translation>%1 von %2 erhalten</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The quoted rate holds until %1.</source>
        <translation>Der angebotene Kurs gilt bis %1.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The quote has lapsed. Payments broadcast before %1 still count.</source>
        <translation>Das Angebot ist abgelaufen. Zahlungen, die vor %1 gesendet wurden, zählen noch.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 since %2.</source>
        <extracomment>e.g. &quot;Settled since 02/12/2026 14:03.&quot;</extracomment>
        <translation>%1 seit %2.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Order</source>
        <translation>Bestellung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Asset</source>
        <translation>Asset</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Price</source>
        <translation>Preis</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Due</source>
        <translation>Fällig</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Received</source>
        <translation>Erhalten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Progress</source>
        <translation>Fortschritt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Countdown</source>
        <translation>Restzeit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <location filename="../ui/invoicespage.cpp" line="+134"/>
        <location filename="../ui/invoicetablemodel.cpp" line="-110"/>
        <source>%1 · verifying network broadcast</source>
        <translation>%1 · Netzwerkübertragung wird geprüft</translation>
    </message>
</context>
<context>
    <name>sd::ui::InvoicesPage</name>
    <message>
        <location line="-68"/>
        <source>Search order, address or transaction ID</source>
        <translation>Bestellung, Adresse oder Transaktions-ID suchen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>All states</source>
        <translation>Alle Status</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open</source>
        <translation>Offen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>All assets</source>
        <translation>Alle Assets</translation>
    </message>
    <message>
        <location line="+156"/>
        <location line="+8"/>
        <source>1 invoice</source>
        <translation>1 Rechnung</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>%L1 invoices</source>
        <translation>%L1 Rechnungen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1+</source>
        <translation>%1+</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 of %2 invoices</source>
        <translation>%1 von %2 Rechnungen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 invoices</source>
        <translation>%1 Rechnungen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>loading…</source>
        <translation>wird geladen…</translation>
    </message>
</context>
<context>
    <name>sd::ui::MainWindow</name>
    <message>
        <location filename="../ui/mainwindow.cpp" line="+63"/>
        <location filename="../ui/mainwindowstatus.cpp" line="+117"/>
        <source>Settledesk</source>
        <translation>Settledesk</translation>
    </message>
    <message>
        <location filename="../ui/mainwindowstatus.cpp" line="-81"/>
        <source>Dismiss</source>
        <translation>Ausblenden</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="+33"/>
        <source>Invoices</source>
        <translation>Rechnungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../ui/mainwindowstatus.cpp" line="+74"/>
        <source>Refund queue</source>
        <translation>Erstattungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Overview</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Webhooks</source>
        <translation>Webhooks</translation>
    </message>
    <message>
        <location filename="../ui/mainwindowstatus.cpp" line="-61"/>
        <source>connecting…</source>
        <translation>verbinde …</translation>
    </message>
    <message>
        <location filename="../ui/mainwindowactions.cpp" line="+42"/>
        <source>&amp;New invoice…</source>
        <translation>&amp;Neue Rechnung …</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Create an invoice and show its QR code (%1)</source>
        <translation>Eine Rechnung erstellen und ihren QR-Code zeigen (%1)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Check wallets now</source>
        <translation>Wallets jetzt &amp;abfragen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Asking every wallet for new payments…</source>
        <translation>Alle Wallets werden nach neuen Zahlungen gefragt …</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen …</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Setup &amp;assistant…</source>
        <translation>Einrichtungs&amp;assistent…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set up the database, wallets and rates step by step, with a test for each</source>
        <translation>Datenbank, Wallets und Kurse Schritt für Schritt einrichten, jeweils mit Test</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Find invoice</source>
        <translation>Rechnung &amp;suchen</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Copy &amp;address</source>
        <translation>&amp;Adresse kopieren</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Export settlement report…</source>
        <translation>Abrechnungsbericht e&amp;xportieren …</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>Report written to %1</source>
        <translation>Bericht nach %1 geschrieben</translation>
    </message>
    <message>
        <location line="-61"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Invoices</source>
        <translation>&amp;Rechnungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Refund queue</source>
        <translation>&amp;Erstattungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Overview</source>
        <translation>&amp;Übersicht</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Webhooks</source>
        <translation>&amp;Webhooks</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About Settledesk</source>
        <translation>&amp;Über Settledesk</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>About Settledesk</source>
        <translation>Über Settledesk</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;p&gt;&lt;b&gt;Settledesk %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Watches crypto invoices settle, keeps late and surplus money in a refund queue for a person to decide, and reports settlements.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Settledesk %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Verfolgt, wie Krypto-Rechnungen beglichen werden, hält verspätetes und überzahltes Geld in einer Erstattungswarteschlange zur Entscheidung durch eine Person bereit und erstellt Abrechnungsberichte.&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Main</source>
        <translation>Haupt</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="+165"/>
        <source>%1 %2 per %3 from %4, priced %5</source>
        <translation>%1 %2 je %3 von %4, Stand %5</translation>
    </message>
    <message>
        <location filename="../ui/mainwindowactions.cpp" line="+100"/>
        <source>Settings saved</source>
        <translation>Einstellungen gespeichert</translation>
    </message>
    <message>
        <location filename="../ui/mainwindowstatus.cpp" line="+24"/>
        <source>API listening on %1</source>
        <translation>API lauscht auf %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This dashboard&apos;s engine serves the merchant API (Greenfield invoices and webhooks) on %1.</source>
        <translation>Die Engine dieses Dashboards stellt die Händler-API (Greenfield-Rechnungen und Webhooks) auf %1 bereit.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>API not running</source>
        <translation>API läuft nicht</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The merchant API did not start: %1</source>
        <translation>Die Händler-API wurde nicht gestartet: %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="+43"/>
        <source>Sent again as delivery %1.</source>
        <translation>Erneut gesendet als Zustellung %1.</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>the engine restarted; fetch the rate again</source>
        <translation>die Engine wurde neu gestartet; Kurs bitte erneut abrufen</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The engine could not start: %1. Check the database under Settings.</source>
        <translation>Die Engine konnte nicht starten: %1. Prüfen Sie die Datenbank unter Einstellungen.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindowstatus.cpp" line="+39"/>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="+156"/>
        <source>The overview could not be computed: %1</source>
        <translation>Die Übersicht konnte nicht berechnet werden: %1</translation>
    </message>
    <message>
        <location line="-390"/>
        <source>Invoices could not be loaded: %1</source>
        <translation>Rechnungen konnten nicht geladen werden: %1</translation>
    </message>
    <message>
        <location line="+266"/>
        <source>Could not load: %1</source>
        <translation>Laden nicht möglich: %1</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>The invoice was not created: %1</source>
        <translation>Die Rechnung wurde nicht erstellt: %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Invoice #%1</source>
        <translation>Rechnung Nr. %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Order %1</source>
        <translation>Bestellung %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invoice settled</source>
        <translation>Rechnung beglichen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: %2 received.</source>
        <translation>%1: %2 erhalten.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Money in the refund queue</source>
        <translation>Geld in der Erstattungswarteschlange</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (%2) is waiting for a decision.</source>
        <translation>%1 (%2) wartet auf eine Entscheidung.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindowstatus.cpp" line="+7"/>
        <source>Settledesk needs attention</source>
        <translation>Settledesk braucht Ihre Aufmerksamkeit</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>Refund queue (%1)</source>
        <translation>Erstattungen (%1)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Settledesk — 1 item in the refund queue</source>
        <translation>Settledesk — 1 Posten in der Erstattungswarteschlange</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Settledesk — %L1 items in the refund queue</source>
        <translation>Settledesk — %L1 Posten in der Erstattungswarteschlange</translation>
    </message>
</context>
<context>
    <name>sd::ui::NewInvoiceDialog</name>
    <message>
        <location filename="../ui/newinvoicedialog.cpp" line="+121"/>
        <source>New invoice</source>
        <translation>Neue Rechnung</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Asset</source>
        <translation>&amp;Asset</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>e.g. 2024-0153 (optional)</source>
        <translation>z. B. 2024-0153 (optional)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Order reference</source>
        <translation>&amp;Bestellnummer</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Price in &amp;fiat</source>
        <translation>Preis in &amp;Fiat</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Amount in &amp;crypto</source>
        <translation>Betrag in &amp;Krypto</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Pricing</source>
        <translation>Preisangabe</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Fetch rate</source>
        <translation>Kurs abrufen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Price</source>
        <translation>Preis</translation>
    </message>
    <message>
        <location line="-162"/>
        <source>Enter the price.</source>
        <translation>Geben Sie den Preis ein.</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>a comma (or a dot)</source>
        <translation>ein Komma (oder ein Punkt)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>a dot</source>
        <translation>ein Punkt</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Enter the rate.</source>
        <translation>Geben Sie den Kurs ein.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The price cannot be negative.</source>
        <translation>Der Preis darf nicht negativ sein.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The rate cannot be negative.</source>
        <translation>Der Kurs darf nicht negativ sein.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The price has too many digits.</source>
        <translation>Der Preis hat zu viele Stellen.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The rate has too many digits.</source>
        <translation>Der Kurs hat zu viele Stellen.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Write the price as a plain number such as %1: %2 for decimals, no thousands separators.</source>
        <translation>Schreiben Sie den Preis als einfache Zahl wie %1: %2 für die Nachkommastellen, keine Tausendertrennzeichen.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write the rate as a plain number such as %1: %2 for decimals, no thousands separators.</source>
        <translation>Schreiben Sie den Kurs als einfache Zahl wie %1: %2 für die Nachkommastellen, keine Tausendertrennzeichen.</translation>
    </message>
    <message>
        <location line="+136"/>
        <source>A plain number: %1 for decimals, no thousands separators. Taken exactly as typed.</source>
        <translation>Eine einfache Zahl: %1 für die Nachkommastellen, keine Tausendertrennzeichen. Genau so übernommen, wie eingegeben.</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Amount</source>
        <translation>Betrag</translation>
    </message>
    <message>
        <location line="-88"/>
        <source>Create invoice</source>
        <translation>Rechnung erstellen</translation>
    </message>
    <message>
        <location line="+140"/>
        <source>Amount to pay</source>
        <translation>Zu zahlender Betrag</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Copy amount</source>
        <translation>Betrag kopieren</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Copy address</source>
        <translation>Adresse kopieren</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Payment link</source>
        <translation>Zahlungslink</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Copy payment link</source>
        <translation>Zahlungslink kopieren</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>Another invoice</source>
        <translation>Weitere Rechnung</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Amount copied</source>
        <translation>Betrag kopiert</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Address copied</source>
        <translation>Adresse kopiert</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Payment link copied</source>
        <translation>Zahlungslink kopiert</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Could not fetch the %1 rate in %2: %3</source>
        <translation>Der %1-Kurs in %2 konnte nicht abgerufen werden: %3</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Rate (%1 per %2)</source>
        <translation>Kurs (%1 je %2)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Choose an asset.</source>
        <translation>Wählen Sie ein Asset.</translation>
    </message>
    <message>
        <location line="-346"/>
        <source>Use a dot as the decimal separator in the price (49.90, not 49,90).</source>
        <translation>Verwenden Sie im Preis einen Punkt als Dezimaltrennzeichen (49.90, nicht 49,90).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The price must be more than zero.</source>
        <translation>Der Preis muss größer als null sein.</translation>
    </message>
    <message>
        <location line="+347"/>
        <source>The currency is a three-letter code such as USD or EUR.</source>
        <translation>Die Währung ist ein Code aus drei Buchstaben wie USD oder EUR.</translation>
    </message>
    <message>
        <location line="-352"/>
        <source>Use a dot as the decimal separator in the rate (162.50, not 162,50).</source>
        <translation>Verwenden Sie im Kurs einen Punkt als Dezimaltrennzeichen (162.50, nicht 162,50).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The rate must be more than zero.</source>
        <translation>Der Kurs muss größer als null sein.</translation>
    </message>
    <message>
        <location line="+352"/>
        <source>That price is too large for one invoice at this rate.</source>
        <translation>Dieser Preis ist bei diesem Kurs zu hoch für eine einzelne Rechnung.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Use a dot as the decimal separator (0.05, not 0,05).</source>
        <translation>Verwenden Sie einen Punkt als Dezimaltrennzeichen (0.05, nicht 0,05).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Enter the amount.</source>
        <translation>Geben Sie den Betrag ein.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The amount cannot be negative.</source>
        <translation>Der Betrag darf nicht negativ sein.</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%1 has at most %n decimal places.</source>
        <translation>
            <numerusform>%1 hat höchstens %n Nachkommastelle.</numerusform>
            <numerusform>%1 hat höchstens %n Nachkommastellen.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>That amount is too large.</source>
        <translation>Dieser Betrag ist zu groß.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Write the amount as a plain number such as %1: %2 for decimals, no thousands separators.</source>
        <translation>Schreiben Sie den Betrag als einfache Zahl wie %1: %2 für die Nachkommastellen, keine Tausendertrennzeichen.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The amount must be more than zero.</source>
        <translation>Der Betrag muss größer als null sein.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No wallet is configured for %1. Add one under Settings first.</source>
        <translation>Für %1 ist keine Wallet eingerichtet. Richten Sie zuerst unter Einstellungen eine ein.</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Enter a price and a rate, or an amount in crypto.</source>
        <translation>Geben Sie einen Preis und einen Kurs ein oder einen Betrag in Krypto.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The customer pays exactly %1.</source>
        <translation>Der Kunde zahlt genau %1.</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Asking the %1 wallet for a fresh address…</source>
        <translation>Die %1-Wallet wird nach einer neuen Adresse gefragt …</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Invoice #%1</source>
        <translation>Rechnung Nr. %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invoice #%1 · order %2</source>
        <translation>Rechnung Nr. %1 · Bestellung %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+46"/>
        <source>Order %1</source>
        <translation>Bestellung %1</translation>
    </message>
    <message>
        <location line="-39"/>
        <source>No payment link: no token contract is configured for %1. The QR code holds the address only; the customer enters the amount.</source>
        <translation>Kein Zahlungslink: Für %1 ist kein Token-Vertrag eingerichtet. Der QR-Code enthält nur die Adresse; der Kunde gibt den Betrag selbst ein.</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The invoice was not created: %1</source>
        <translation>Die Rechnung wurde nicht erstellt: %1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1 (of %2)</source>
        <translation>%1 (von %2)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Paid and confirmed. Thank you!</source>
        <translation>Bezahlt und bestätigt. Vielen Dank!</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Paid in full · waiting for confirmations (%1 of %2)</source>
        <translation>Vollständig bezahlt · wartet auf Bestätigungen (%1 von %2)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This invoice has closed and no longer takes payments.</source>
        <translation>Diese Rechnung ist geschlossen und nimmt keine Zahlungen mehr an.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Pay within %1</source>
        <translation>Zahlen innerhalb von %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Quote lapsed · verifying network broadcast (%1)</source>
        <translation>Angebot abgelaufen · Netzwerkübertragung wird geprüft (%1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This invoice no longer takes payments.</source>
        <translation>Diese Rechnung nimmt keine Zahlungen mehr an.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Received so far: %1</source>
        <translation>Bisher erhalten: %1</translation>
    </message>
</context>
<context>
    <name>sd::ui::Notifier</name>
    <message>
        <location filename="../ui/notifier.cpp" line="+14"/>
        <source>Settledesk</source>
        <translation>Settledesk</translation>
    </message>
</context>
<context>
    <name>sd::ui::OverviewWidget</name>
    <message>
        <location filename="../ui/overviewwidget.cpp" line="+71"/>
        <source>Settled volume per day</source>
        <translation>Beglichenes Volumen pro Tag</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Invoices by state</source>
        <translation>Rechnungen nach Status</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Refund queue size</source>
        <translation>Größe der Erstattungswarteschlange</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pending items</source>
        <translation>Offene Posten</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Median time to settle</source>
        <translation>Median der Zeit bis zur Begleichung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>minutes</source>
        <translation>Minuten</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Median</source>
        <translation>Median</translation>
    </message>
    <message>
        <location line="+92"/>
        <source>Settled volume per day (%1)</source>
        <translation>Beglichenes Volumen pro Tag (%1)</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Settled volume per week (%1)</source>
        <translation>Beglichenes Volumen pro Woche (%1)</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Open</source>
        <translation>Offen</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Median time to settle per day</source>
        <translation>Median der Zeit bis zur Begleichung pro Tag</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Median time to settle per week</source>
        <translation>Median der Zeit bis zur Begleichung pro Woche</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Invoices: %1 · open: %2 · settled: %3 %4 · pending refunds: %5</source>
        <translation>Rechnungen: %1 · offen: %2 · beglichen: %3 %4 · offene Erstattungen: %5</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>1 settled invoice without a price in %1 is not included</source>
        <translation>1 beglichene Rechnung ohne Preis in %1 ist nicht enthalten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%L1 settled invoices without a price in %2 are not included</source>
        <translation>%L1 beglichene Rechnungen ohne Preis in %2 sind nicht enthalten</translation>
    </message>
</context>
<context>
    <name>sd::ui::QrCodeWidget</name>
    <message>
        <location filename="../ui/qrcodewidget.cpp" line="+34"/>
        <source>No QR code</source>
        <translation>Kein QR-Code</translation>
    </message>
</context>
<context>
    <name>sd::ui::RefundActionsDialog</name>
    <message>
        <location filename="../ui/refundactionsdialog.cpp" line="+83"/>
        <source>Item:</source>
        <translation>Posten:</translation>
    </message>
    <message>
        <location line="-6"/>
        <location line="+6"/>
        <source>#%1, %2 (%3)</source>
        <translation>Nr. %1, %2 (%3)</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Items:</source>
        <translation>Posten:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Together:</source>
        <translation>Zusammen:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 in one transaction, one network fee (invoice %2)</source>
        <translation>%1 in einer Transaktion, eine Netzwerkgebühr (Rechnung %2)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Refund</source>
        <translation>Erstattung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The customer&apos;s %1 address</source>
        <translation>%1-Adresse des Kunden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refund address:</source>
        <translation>Erstattungsadresse:</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+103"/>
        <location line="+55"/>
        <source>Check fee</source>
        <translation>Gebühr prüfen</translation>
    </message>
    <message>
        <location line="-158"/>
        <source>Approve for manual payout</source>
        <translation>Für manuelle Auszahlung freigeben</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No wallet can send %1: the refund is recorded as approved and you pay it by hand, then enter the payout transaction id.</source>
        <translation>Keine Wallet kann %1 senden: Die Erstattung wird als freigegeben vermerkt, Sie zahlen sie von Hand aus und tragen danach die Transaktions-ID der Auszahlung ein.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Apply to invoice</source>
        <translation>Der Rechnung anrechnen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accept this money for invoice %1: the invoice is marked settled manually. This cannot be undone.</source>
        <translation>Dieses Geld für Rechnung %1 annehmen: Die Rechnung wird von Hand als beglichen markiert. Das lässt sich nicht rückgängig machen.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Apply</source>
        <translation>Anrechnen</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+11"/>
        <source>Record payout</source>
        <translation>Auszahlung erfassen</translation>
    </message>
    <message>
        <location line="-10"/>
        <location line="+17"/>
        <source>Paid to:</source>
        <translation>Bezahlt an:</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>0x followed by 64 hex digits</source>
        <translation>0x gefolgt von 64 Hexziffern</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>64 hex digits</source>
        <translation>64 Hexziffern</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Transaction id:</source>
        <translation>Transaktions-ID:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>0 if the fee was not taken from the refund</source>
        <translation>0, wenn die Gebühr nicht von der Rückzahlung abging</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Network fee (%1):</source>
        <translation>Netzwerkgebühr (%1):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Record this only once the transaction is sent: the item leaves the queue as refunded.</source>
        <translation>Erst erfassen, wenn die Transaktion gesendet ist: der Eintrag verlässt die Warteschlange als zurückgezahlt.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Rebuild refund</source>
        <translation>Erstattung neu erstellen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stored transaction:</source>
        <translation>Gespeicherte Transaktion:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The stored transaction cannot be relayed any more. Settledesk first asks the Monero daemon whether it can ever be mined; only if it cannot (one of its inputs is spent by another transaction) is a new one built. Nothing is sent before you confirm the fee.</source>
        <translation>Die gespeicherte Transaktion lässt sich nicht mehr weiterleiten. Settledesk fragt zuerst den Monero-Daemon, ob sie je gemined werden kann; nur wenn nicht (einer ihrer Eingänge ist von einer anderen Transaktion ausgegeben), wird eine neue erstellt. Nichts wird gesendet, bevor Sie die Gebühr bestätigen.</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+120"/>
        <source>Check</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <location line="-117"/>
        <location line="+4"/>
        <source>Dismiss</source>
        <translation>Ausblenden</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>e.g. dust not worth a fee</source>
        <translation>z. B. Kleinstbetrag, der die Gebühr nicht lohnt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason:</source>
        <translation>Grund:</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>A USDT transaction id is 0x followed by 64 hex digits.</source>
        <translation>Eine USDT-Transaktions-ID ist 0x gefolgt von 64 Hexziffern.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A %1 transaction id is 64 hex digits.</source>
        <translation>Eine %1-Transaktions-ID besteht aus 64 Hexziffern.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The fee is not an amount of %1 (at most %2 decimals, &apos;.&apos; as the separator).</source>
        <translation>Die Gebühr ist kein Betrag in %1 (höchstens %2 Nachkommastellen, &apos;.&apos; als Trennzeichen).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The fee is larger than the item (%1).</source>
        <translation>Die Gebühr ist größer als der Eintrag (%1).</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Valid %1 address (%2)</source>
        <translation>Gültige %1-Adresse (%2)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invalid address: %1</source>
        <translation>Ungültige Adresse: %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Asking the daemon and building the transaction…</source>
        <translation>Daemon wird gefragt, Transaktion wird erstellt …</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Building the transaction…</source>
        <translation>Transaktion wird erstellt …</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The stored transaction can never be mined. The new one sends: </source>
        <translation>Die gespeicherte Transaktion kann nie gemined werden. Die neue sendet: </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The customer receives %1; network fee %2 (items together %3).</source>
        <translation>Der Kunde erhält %1; Netzwerkgebühr %2 (Posten zusammen %3).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The customer receives %1; network fee %2 (item %3).</source>
        <translation>Der Kunde erhält %1; Netzwerkgebühr %2 (Posten %3).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Send refund</source>
        <translation>Erstattung senden</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Rebuild and send</source>
        <translation>Neu erstellen und senden</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Not rebuilt: %1</source>
        <translation>Nicht neu erstellt: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The wallet could not build the refund: %1</source>
        <translation>Die Wallet konnte die Erstattung nicht erstellen: %1</translation>
    </message>
</context>
<context>
    <name>sd::ui::RefundFlow</name>
    <message>
        <location filename="../ui/refundflow.cpp" line="+24"/>
        <location line="+25"/>
        <source>Another refund action is still running; wait for it to finish.</source>
        <translation>Eine andere Erstattungsaktion läuft noch; bitte warten, bis sie abgeschlossen ist.</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Refund #%1 is sent by Settledesk and was interrupted. Finish it with &quot;settledesk refunds approve %1 --yes&quot;: it relays the transaction already built, never a second one. If that transaction can no longer be relayed, use &quot;Rebuild the refund…&quot;.</source>
        <translation>Erstattung #%1 wird von Settledesk gesendet und wurde unterbrochen. Schließen Sie sie mit &quot;settledesk refunds approve %1 --yes&quot; ab: Es leitet die bereits erstellte Transaktion weiter, nie eine zweite. Lässt sich diese Transaktion nicht mehr weiterleiten, verwenden Sie &quot;Erstattung neu erstellen …&quot;.</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Sending refund #%1…</source>
        <translation>Erstattung #%1 wird gesendet…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Recording refund #%1…</source>
        <translation>Erstattung #%1 wird erfasst…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Rebuilding refund #%1…</source>
        <translation>Erstattung #%1 wird neu erstellt …</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Recording the payout of refund #%1…</source>
        <translation>Auszahlung der Rückzahlung #%1 wird erfasst…</translation>
    </message>
</context>
<context>
    <name>sd::ui::RefundTableModel</name>
    <message>
        <location filename="../ui/refundtablemodel.cpp" line="+25"/>
        <location line="+1"/>
        <source>#%1</source>
        <translation>Nr. %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 · maybe in time</source>
        <translation>%1 · vielleicht rechtzeitig</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Every payment this item holds is confirmed: it can be refunded.</source>
        <translation>Jede Zahlung dieses Postens ist bestätigt: Er kann erstattet werden.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refunding waits until every payment it holds has its confirmations and no time lock, so the money cannot vanish after it was sent back. Apply and dismiss stay possible.</source>
        <translation>Die Erstattung wartet, bis jede Zahlung des Postens ihre Bestätigungen und keine Zeitsperre hat, damit das Geld nach der Rücksendung nicht verschwinden kann. Anrechnen und Verwerfen bleiben möglich.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Item</source>
        <translation>Posten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invoice</source>
        <translation>Rechnung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Asset</source>
        <translation>Asset</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Amount</source>
        <translation>Betrag</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Transactions</source>
        <translation>Transaktionen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Pay to</source>
        <translation>Zahlen an</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queued</source>
        <translation>Eingereiht</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refund</source>
        <translation>Erstattung</translation>
    </message>
</context>
<context>
    <name>sd::ui::RefundsPage</name>
    <message>
        <location filename="../ui/refundspage.cpp" line="+39"/>
        <source>Refund to the customer…</source>
        <translation>An den Kunden erstatten …</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Apply to its invoice…</source>
        <translation>Der Rechnung anrechnen …</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dismiss…</source>
        <translation>Verwerfen …</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Refund together with the invoice&apos;s other items…</source>
        <translation>Zusammen mit den anderen Posten der Rechnung erstatten …</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Record payout…</source>
        <translation>Auszahlung erfassen…</translation>
    </message>
    <message>
        <location line="+91"/>
        <source>1 deposit could not be recorded and waits for you to look at it:</source>
        <translation>1 Eingang konnte nicht verbucht werden und wartet darauf, dass Sie ihn prüfen:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%L1 deposits could not be recorded and wait for you to look at them:</source>
        <translation>%L1 Eingänge konnten nicht verbucht werden und warten darauf, dass Sie sie prüfen:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Q%1 · %2 transaction %3 (output %4) to %5: %6</source>
        <translation>Q%1 · %2-Transaktion %3 (Ausgabe %4) an %5: %6</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>an unknown address</source>
        <translation>eine unbekannte Adresse</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Once you have looked at one, dismiss it with: settledesk refunds dismiss Q&lt;number&gt; --reason TEXT</source>
        <translation>Wenn Sie einen geprüft haben, verwerfen Sie ihn mit: settledesk refunds dismiss Q&lt;Nummer&gt; --reason TEXT</translation>
    </message>
    <message>
        <location line="-92"/>
        <source>Rebuild the refund…</source>
        <translation>Erstattung neu erstellen …</translation>
    </message>
    <message>
        <location line="+138"/>
        <source>1 refund approved for a manual payout: send it, then record its transaction (right click).</source>
        <translation>1 Rückzahlung zur manuellen Auszahlung freigegeben: senden, dann ihre Transaktion erfassen (Rechtsklick).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%L1 refunds approved for a manual payout: send them, then record each transaction (right click).</source>
        <translation>%L1 Rückzahlungen zur manuellen Auszahlung freigegeben: senden, dann jede Transaktion erfassen (Rechtsklick).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The refund queue is empty.</source>
        <translation>Die Erstattungswarteschlange ist leer.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>1 item waiting for a decision.</source>
        <translation>1 Posten wartet auf eine Entscheidung.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%L1 items waiting for a decision.</source>
        <translation>%L1 Posten warten auf eine Entscheidung.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>1 of them waits for its confirmations.</source>
        <translation>1 davon wartet auf seine Bestätigungen.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%L1 of them wait for their confirmations.</source>
        <translation>%L1 davon warten auf ihre Bestätigungen.</translation>
    </message>
</context>
<context>
    <name>sd::ui::SecretBatch</name>
    <message>
        <location filename="../ui/secretwriter.cpp" line="+28"/>
        <source>Nothing was saved. Set up a keychain (Secret Service or KWallet), or leave the password empty and name an environment variable that holds it.</source>
        <translation>Es wurde nichts gespeichert. Richten Sie einen Schlüsselbund ein (Secret Service oder KWallet) oder lassen Sie das Passwort leer und nennen Sie eine Umgebungsvariable, die es enthält.</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The database password could not be stored in the system keychain: %1</source>
        <translation>Das Datenbank-Passwort konnte nicht im Schlüsselbund des Systems gespeichert werden: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The %1 wallet password could not be stored in the system keychain: %2</source>
        <translation>Das Passwort der %1-Wallet konnte nicht im Schlüsselbund des Systems gespeichert werden: %2</translation>
    </message>
</context>
<context>
    <name>sd::ui::SecretWriter</name>
    <message>
        <location line="-31"/>
        <source>the keychain refused (error %1)</source>
        <translation>der Schlüsselbund hat abgelehnt (Fehler %1)</translation>
    </message>
</context>
<context>
    <name>sd::ui::SettingsDialog</name>
    <message>
        <location filename="../ui/settingsdialog.cpp" line="+66"/>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>General</source>
        <translation>Allgemein</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Database</source>
        <translation>Datenbank</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Database and wallet changes reconnect the engine when you press OK; open invoices keep their terms. Passwords are stored in the system keychain only.</source>
        <translation>Änderungen an Datenbank und Wallets verbinden die Engine beim Klick auf OK neu; offene Rechnungen behalten ihre Bedingungen. Passwörter werden nur im Schlüsselbund des Systems gespeichert.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>API &amp;keys…</source>
        <translation>API-&amp;Schlüssel …</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keys with which a shop uses the merchant API</source>
        <translation>Schlüssel, mit denen ein Shop die Händler-API nutzt</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Fiat &amp;currency</source>
        <translation>Fiat-&amp;Währung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The name written to the audit log for refund decisions.</source>
        <translation>Der Name, der bei Erstattungsentscheidungen ins Prüfprotokoll geschrieben wird.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Operator name</source>
        <translation>&amp;Name des Bearbeiters</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show a desktop &amp;notification when an invoice settles or money lands in the refund queue</source>
        <translation>Eine Desktop-&amp;Benachrichtigung zeigen, wenn eine Rechnung beglichen wird oder Geld in der Erstattungswarteschlange landet</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A window (no second screen)</source>
        <translation>Ein Fenster (kein zweiter Bildschirm)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 (%2 × %3)</source>
        <translation>%1 (%2 × %3)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 (not connected)</source>
        <translation>%1 (nicht angeschlossen)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Customer &amp;display on:</source>
        <translation>&amp;Kundenanzeige auf:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show each new invoice on the customer display</source>
        <translation>Jede neue Rechnung auf der Kundenanzeige zeigen</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>SQLite file on this computer</source>
        <translation>SQLite-Datei auf diesem Computer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PostgreSQL server (shared)</source>
        <translation>PostgreSQL-Server (gemeinsam genutzt)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Storage</source>
        <translation>&amp;Speicher</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>empty: %1</source>
        <translation>leer: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Browse…</source>
        <translation>Durchsuchen …</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>SQLite database file</source>
        <translation>SQLite-Datenbankdatei</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SQLite databases (*.db *.sqlite);;All files (*)</source>
        <translation>SQLite-Datenbanken (*.db *.sqlite);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+57"/>
        <source>unchanged</source>
        <translation>unverändert</translation>
    </message>
    <message>
        <location line="-56"/>
        <location line="+57"/>
        <source>Password (keychain)</source>
        <translation>Passwort (Schlüsselbund)</translation>
    </message>
    <message>
        <location line="-55"/>
        <source>optional, e.g. SETTLEDESK_DB_PASSWORD</source>
        <translation>optional, z. B. SETTLEDESK_DB_PASSWORD</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+57"/>
        <source>…or from environment variable</source>
        <translation>… oder aus Umgebungsvariable</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Connect to the database, check its encryption and schema version (nothing is saved or created)</source>
        <translation>Mit der Datenbank verbinden, Verschlüsselung und Schema-Version prüfen (nichts wird gespeichert oder angelegt)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Settings are saved in %1.</source>
        <translation>Die Einstellungen werden in %1 gespeichert.</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Accept %1</source>
        <translation>%1 annehmen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Wallet RPC URL</source>
        <translation>Wallet-RPC-URL</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The chain the wallet must be on; the test refuses a wallet of another network.</source>
        <translation>Die Chain, auf der die Wallet sein muss; der Test lehnt eine Wallet eines anderen Netzwerks ab.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>optional environment variable</source>
        <translation>optionale Umgebungsvariable</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Token contract</source>
        <translation>Token-Vertrag</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Account index</source>
        <translation>Kontoindex</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Confirmations required</source>
        <translation>Erforderliche Bestätigungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Quote window</source>
        <translation>Angebotsfenster</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>After the quote lapses, deposits broadcast in time still count for this long.</source>
        <translation>Nach Ablauf des Angebots zählen rechtzeitig gesendete Einzahlungen noch so lange.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Grace window</source>
        <translation>Nachfrist</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A shortfall worth up to this much fiat still settles (converted at the quote rate).</source>
        <translation>Ein Fehlbetrag bis zu diesem Fiat-Wert gilt noch als beglichen (umgerechnet zum Angebotskurs).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dust tolerance (fiat)</source>
        <translation>Kleinstbetrags-Toleranz (Fiat)</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+4"/>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Poll interval</source>
        <translation>Abfrageintervall</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Request timeout</source>
        <translation>Zeitlimit für Anfragen</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>General: the fiat currency must be a three-letter code such as USD or EUR.</source>
        <translation>Allgemein: Die Fiat-Währung muss ein Code aus drei Buchstaben wie USD oder EUR sein.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Database: the PostgreSQL URL must look like postgres://user@host:5432/database.</source>
        <translation>Datenbank: Die PostgreSQL-URL muss die Form postgres://benutzer@host:5432/datenbank haben.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Database: do not put the password in the URL; type it into the password field (it is stored in the system keychain).</source>
        <translation>Datenbank: Schreiben Sie das Passwort nicht in die URL, sondern in das Passwortfeld (es wird im Schlüsselbund des Systems gespeichert).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Database: choose the SQLite file.</source>
        <translation>Datenbank: Wählen Sie die SQLite-Datei.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1: the dust tolerance must be a plain decimal number such as 0.05.</source>
        <translation>%1: Die Kleinstbetrags-Toleranz muss eine einfache Dezimalzahl wie 0.05 sein.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1: enter the wallet RPC URL, or untick &quot;Accept %1&quot;.</source>
        <translation>%1: Geben Sie die Wallet-RPC-URL ein oder entfernen Sie den Haken bei „%1 annehmen“.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: the wallet RPC URL must be an http:// or https:// address such as %2.</source>
        <translation>%1: Die Wallet-RPC-URL muss eine http://- oder https://-Adresse wie %2 sein.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: do not put the password in the URL; type it into the password field.</source>
        <translation>%1: Schreiben Sie das Passwort nicht in die URL, sondern in das Passwortfeld.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: the token contract must be an address of the form 0x followed by 40 hex digits.</source>
        <translation>%1: Der Token-Vertrag muss eine Adresse der Form 0x gefolgt von 40 Hexadezimalziffern sein.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: with a poll interval under a second, keep the request timeout under ten poll intervals.</source>
        <translation>%1: Bei einem Abfrageintervall unter einer Sekunde muss das Zeitlimit für Anfragen unter zehn Abfrageintervallen bleiben.</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Storing passwords in the system keychain…</source>
        <translation>Passwörter werden im Schlüsselbund des Systems gespeichert …</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>The settings could not be saved: %1</source>
        <translation>Die Einstellungen konnten nicht gespeichert werden: %1</translation>
    </message>
</context>
<context>
    <name>sd::ui::SetupWizard</name>
    <message>
        <location filename="../ui/setupwizard.cpp" line="+50"/>
        <source>Settledesk setup</source>
        <translation>Settledesk einrichten</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Where Settledesk keeps its records</source>
        <translation>Wo Settledesk seine Daten ablegt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invoices, payments and the refund queue live in one database. One desk: a file on this computer. Several desks or a server: PostgreSQL.</source>
        <translation>Rechnungen, Zahlungen und die Erstattungswarteschlange liegen in einer Datenbank. Ein Arbeitsplatz: eine Datei auf diesem Computer. Mehrere Arbeitsplätze oder ein Server: PostgreSQL.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Try it first without money: a private test network on this computer</source>
        <translation>&amp;Erst ohne Geld ausprobieren: ein privates Testnetz auf diesem Computer</translation>
    </message>
    <message>
        <location line="+180"/>
        <source>Settledesk starts a local Monero test network (Debian package monero) with a shop wallet and a customer wallet that pays your test invoices. Its records are kept apart from your own; nothing here is saved. Later: settledesk --demo.</source>
        <translation>Settledesk startet ein lokales Monero-Testnetz (Debian-Paket monero) mit einem Shop-Wallet und einem Kunden-Wallet, das Ihre Testrechnungen bezahlt. Seine Daten bleiben getrennt von Ihren; hier wird nichts gespeichert. Später: settledesk --demo.</translation>
    </message>
    <message>
        <location line="-168"/>
        <source>&amp;SQLite file on this computer (recommended for one desk)</source>
        <translation>&amp;SQLite-Datei auf diesem Computer (empfohlen für einen Arbeitsplatz)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;PostgreSQL server (shared)</source>
        <translation>&amp;PostgreSQL-Server (gemeinsam)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../ui/setupwizardwallets.cpp" line="+100"/>
        <source>stored in the system keychain</source>
        <translation>wird im Schlüsselbund des Systems gespeichert</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../ui/setupwizardwallets.cpp" line="+12"/>
        <source>Password</source>
        <translation>Passwort</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Connect to the database, check its encryption and schema version (nothing is saved or created)</source>
        <translation>Mit der Datenbank verbinden, Verschlüsselung und Schema-Version prüfen (nichts wird gespeichert oder angelegt)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>What you accept</source>
        <translation>Was Sie annehmen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Each currency needs a wallet of your own that Settledesk watches; the next pages ask for it.</source>
        <translation>Jede Währung braucht eine eigene Wallet, die Settledesk beobachtet; die nächsten Seiten fragen danach.</translation>
    </message>
    <message>
        <location filename="../ui/setupwizardwallets.cpp" line="-45"/>
        <source>Monero: your wallet RPC</source>
        <translation>Monero: Ihr Wallet-RPC</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>monero-wallet-rpc with your shop&apos;s wallet open (--wallet-file) and a login (--rpc-login user:password). A view-only wallet works; refunds are then paid by hand.</source>
        <translation>monero-wallet-rpc mit geöffneter Wallet Ihres Geschäfts (--wallet-file) und einer Anmeldung (--rpc-login benutzer:passwort). Eine Nur-Ansicht-Wallet genügt; Erstattungen werden dann von Hand gezahlt.</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+5"/>
        <source>Wallet RPC URL</source>
        <translation>Wallet-RPC-URL</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Bitcoin: Bitcoin Core</source>
        <translation>Bitcoin: Bitcoin Core</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bitcoin Core&apos;s RPC with your shop&apos;s wallet: /wallet/NAME at the end of the URL. The login is its cookie file, or rpcuser and rpcpassword.</source>
        <translation>Das RPC von Bitcoin Core mit der Wallet Ihres Geschäfts: /wallet/NAME am Ende der URL. Angemeldet wird mit der Cookie-Datei oder mit rpcuser und rpcpassword.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>USDT: an Ethereum node</source>
        <translation>USDT: ein Ethereum-Knoten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>An Ethereum node&apos;s JSON-RPC and the token contract. Each invoice gets one of your own receive addresses from a pool: a text file with one address a line.</source>
        <translation>Das JSON-RPC eines Ethereum-Knotens und der Token-Vertrag. Jede Rechnung erhält eine Ihrer eigenen Empfangsadressen aus einem Vorrat: einer Textdatei mit einer Adresse pro Zeile.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Node URL</source>
        <translation>Knoten-URL</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Bitcoin Core writes .cookie into its data directory when it starts; used when no user is given.</source>
        <translation>Bitcoin Core schreibt beim Start .cookie in sein Datenverzeichnis; verwendet, wenn kein Benutzer angegeben ist.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cookie file</source>
        <translation>Cookie-Datei</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>…or user</source>
        <translation>…oder Benutzer</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Account index</source>
        <translation>Kontoindex</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Token contract</source>
        <translation>Token-Vertrag</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a text file, one address a line</source>
        <translation>eine Textdatei, eine Adresse pro Zeile</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen …</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Receive addresses</source>
        <translation>Empfangsadressen</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Receive addresses for USDT</source>
        <translation>Empfangsadressen für USDT</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Address lists (*.txt *.csv);;All files (*)</source>
        <translation>Adresslisten (*.txt *.csv);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location filename="../ui/setupwizard.cpp" line="+16"/>
        <source>You and your currency</source>
        <translation>Sie und Ihre Währung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invoices are priced in your fiat currency; your name goes into the audit log of refund decisions.</source>
        <translation>Rechnungen werden in Ihrer Fiat-Währung ausgepreist; Ihr Name steht im Prüfprotokoll der Erstattungsentscheidungen.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Operator name</source>
        <translation>Name des &amp;Bedieners</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Fiat &amp;currency</source>
        <translation>Fiat-&amp;Währung</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Exchange rates</source>
        <translation>Wechselkurse</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A new invoice is converted at the rate of this source; an outdated rate is refused, never used.</source>
        <translation>Eine neue Rechnung wird zum Kurs dieser Quelle umgerechnet; ein veralteter Kurs wird abgelehnt, nie verwendet.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Kraken (public prices)</source>
        <translation>Kraken (öffentliche Kurse)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CoinGecko (public prices)</source>
        <translation>CoinGecko (öffentliche Kurse)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fixed rates I enter</source>
        <translation>Feste Kurse, die ich eingebe</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Source</source>
        <translation>&amp;Quelle</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>empty: the source&apos;s public address</source>
        <translation>leer: die öffentliche Adresse der Quelle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>price of 1 %1 in your currency, e.g. 150.00</source>
        <translation>Preis von 1 %1 in Ihrer Währung, z. B. 150.00</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>1 %1 =</source>
        <translation>1 %1 =</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Fetch one rate now and show it with its age</source>
        <translation>Jetzt einen Kurs abrufen und mit seinem Alter zeigen</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Finish stores the passwords in the system keychain and the rest in %1.</source>
        <translation>„Fertigstellen“ speichert die Passwörter im Schlüsselbund des Systems und den Rest in %1.</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>To try Settledesk without money, start it with settledesk --demo (scripts/run --demo): a private test network with records of its own. This assistant changes your own configuration.</source>
        <translation>Um Settledesk ohne Geld auszuprobieren, starten Sie es mit settledesk --demo (scripts/run --demo): ein privates Testnetz mit eigenen Daten. Dieser Assistent ändert Ihre eigene Konfiguration.</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>Choose at least one currency to accept.</source>
        <translation>Wählen Sie mindestens eine Währung, die Sie annehmen.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Bitcoin: choose Bitcoin Core&apos;s cookie file, or enter its RPC user and password.</source>
        <translation>Bitcoin: wählen Sie die Cookie-Datei von Bitcoin Core oder geben Sie RPC-Benutzer und Passwort ein.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Enter the name the audit log records for your refund decisions.</source>
        <translation>Geben Sie den Namen ein, den das Prüfprotokoll für Ihre Erstattungsentscheidungen festhält.</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Enter the price of 1 %1 in %2 as a positive number such as 150.00.</source>
        <translation>Geben Sie den Preis von 1 %1 in %2 als positive Zahl ein, etwa 150.00.</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>The settings were not saved.</source>
        <translation>Die Einstellungen wurden nicht gespeichert.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The receive addresses cannot be imported from here: nothing was saved.</source>
        <translation>Die Empfangsadressen können von hier aus nicht importiert werden: Es wurde nichts gespeichert.</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>The receive addresses could not be imported into the database: %1
The settings were not saved.</source>
        <translation>Die Empfangsadressen konnten nicht in die Datenbank importiert werden: %1
Die Einstellungen wurden nicht gespeichert.</translation>
    </message>
    <message>
        <location filename="../ui/setupwizardwallets.cpp" line="+48"/>
        <source>USDT: cannot read the address list %1: %2</source>
        <translation>USDT: Die Adressliste %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Line %1: the zero address cannot receive payments.</source>
        <translation>Zeile %1: An die Null-Adresse kann nicht gezahlt werden.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Line %1: &quot;%2&quot; is not a usable address: %3</source>
        <translation>Zeile %1: „%2“ ist keine verwendbare Adresse: %3</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Further lines with problems: %1.</source>
        <translation>Weitere fehlerhafte Zeilen: %1.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing is imported from a list with a bad line: fix it, or choose another file.</source>
        <translation>Aus einer Liste mit einer fehlerhaften Zeile wird nichts importiert: Berichtigen Sie die Zeile oder wählen Sie eine andere Datei.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>USDT: %1 lists no addresses.</source>
        <translation>USDT: %1 enthält keine Adressen.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Addresses found: %1. Finish adds them to the pool; addresses already there are skipped.</source>
        <translation>Gefundene Adressen: %1. „Fertigstellen“ fügt sie dem Vorrat hinzu; Adressen, die schon darin sind, werden übersprungen.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No list chosen: USDT invoices need a free address from the pool. You can import one later with settledesk addresses import --asset USDT FILE.</source>
        <translation>Keine Liste gewählt: USDT-Rechnungen brauchen eine freie Adresse aus dem Vorrat. Sie können später eine importieren: settledesk addresses import --asset USDT DATEI.</translation>
    </message>
    <message>
        <location filename="../ui/setupwizard.cpp" line="+14"/>
        <source>The settings could not be saved: %1</source>
        <translation>Die Einstellungen konnten nicht gespeichert werden: %1</translation>
    </message>
</context>
<context>
    <name>sd::ui::WebhookEndpointModel</name>
    <message>
        <location filename="../ui/webhookmodels.cpp" line="-125"/>
        <source>all events</source>
        <translation>alle Ereignisse</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>healthy</source>
        <translation>in Ordnung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>retrying</source>
        <translation>wird wiederholt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failing</source>
        <translation>scheitert</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no deliveries yet</source>
        <translation>noch keine Zustellungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>disabled</source>
        <translation>deaktiviert</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Last error: %1</source>
        <translation>Letzter Fehler: %1</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Endpoint</source>
        <translation>Endpunkt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Health</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Delivered</source>
        <translation>Zugestellt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not delivered</source>
        <translation>Nicht zugestellt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last success</source>
        <translation>Letzter Erfolg</translation>
    </message>
</context>
<context>
    <name>sd::ui::WebhooksPage</name>
    <message>
        <location filename="../ui/webhookspage.cpp" line="+47"/>
        <source>Webhooks tell the shop about each invoice&apos;s events. They are set up by the shop through the merchant API; a delivery that is not answered is retried for about two days, and each attempt is listed here.</source>
        <translation>Webhooks melden dem Shop die Ereignisse jeder Rechnung. Der Shop richtet sie über die Händler-API ein; eine unbeantwortete Zustellung wird etwa zwei Tage lang wiederholt, und jeder Versuch steht hier.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Endpoints</source>
        <translation>Endpunkte</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Webhook endpoints</source>
        <translation>Webhook-Endpunkte</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Recent deliveries (of the selected endpoint, or of all)</source>
        <translation>Letzte Zustellungen (des gewählten Endpunkts oder aller)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Webhook deliveries</source>
        <translation>Webhook-Zustellungen</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re&amp;deliver</source>
        <translation>Erneut &amp;zustellen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Send the selected delivery&apos;s event again (a new delivery id; the original one is named in it)</source>
        <translation>Das Ereignis der gewählten Zustellung erneut senden (eine neue Zustellungs-ID; die ursprüngliche wird darin genannt)</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>No webhook yet: the shop creates one through the merchant API (docs/api.md).</source>
        <translation>Noch kein Webhook: Der Shop legt einen über die Händler-API an (docs/api.md).</translation>
    </message>
</context>
</TS>
