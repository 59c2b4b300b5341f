# Packaging: install rules for everything besides the binary (translations, desktop entry, icon, AppStream
# metadata, the headless engine's systemd unit, its system user and configuration) and CPack's Debian
# package. Included from the top CMakeLists.txt; `cmake --build build --target package` builds the .deb.
include(GNUInstallDirs)

set(SETTLEDESK_APP_ID org.settledesk.Settledesk)
set(SETTLEDESK_RELEASE_DATE 2026-11-29) # of PROJECT_VERSION, for the AppStream release entry
set(_pkg ${CMAKE_CURRENT_LIST_DIR})

# Translations: the .qm files lrelease builds beside the binary (they are also compiled into it as
# resources); installed so that distributions and translators find them in the usual place.
file(GLOB _ts_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/translations/*.ts)
foreach(_ts IN LISTS _ts_files)
    get_filename_component(_qm ${_ts} NAME_WE)
    install(FILES "$<TARGET_FILE_DIR:settledesk>/${_qm}.qm" DESTINATION ${CMAKE_INSTALL_DATADIR}/settledesk/translations)
endforeach()

# Desktop entry, icon (the dashboard's own) and AppStream metadata, under the app id.
install(FILES ${_pkg}/${SETTLEDESK_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/settledesk.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps RENAME ${SETTLEDESK_APP_ID}.svg)
configure_file(${_pkg}/${SETTLEDESK_APP_ID}.metainfo.xml.in ${CMAKE_BINARY_DIR}/packaging/${SETTLEDESK_APP_ID}.metainfo.xml @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/packaging/${SETTLEDESK_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

# The headless engine as a service: unit, system user, and a configuration without secrets (a conffile).
# Absolute /lib and /etc paths: systemd and dpkg look there whatever the install prefix is.
install(FILES ${_pkg}/settledesk.service DESTINATION /lib/systemd/system)
install(FILES ${_pkg}/settledesk.sysusers DESTINATION /usr/lib/sysusers.d RENAME settledesk.conf)
install(FILES ${_pkg}/settledesk.ini DESTINATION /etc/settledesk)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/settledesk)
install(FILES ${PROJECT_SOURCE_DIR}/docs/cli.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/settledesk)

# ---- CPack: one Debian package ----
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME settledesk)
set(CPACK_PACKAGE_VENDOR "Settledesk")
set(CPACK_PACKAGE_CONTACT "Settledesk maintainers <maintainers@settledesk.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Crypto invoice settlement dashboard for merchants")
set(CPACK_PACKAGE_DESCRIPTION "Settledesk watches crypto invoices (XMR, BTC, USDT) settle against a locked\n\
quote, routes late money to a refund queue that a person clears, and exports\n\
settlement reports (CSV, PDF). The engine also runs headless as a systemd\n\
service (settledesk.service) next to a PostgreSQL database.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # settledesk_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Shared libraries the binary links (Qt, qtkeychain, libqrencode, libstdc++) come from dpkg-shlibdeps;
# what it cannot see is listed: Qt's SQL drivers and platform plugins are loaded at run time, the SVG
# icon engine too, and Qt's own translations.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite, libqt6sql6-psql, qt6-qpa-plugins, libqt6svg6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-translations-l10n")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "postgresql, monero")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${_pkg}/debian/postinst ${_pkg}/debian/prerm ${_pkg}/debian/postrm ${_pkg}/debian/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
