# SPDX-License-Identifier: BSD-2-Clause
# lib/include: the public headers of the Allinea/Arm MAP metric plugin
# interface, installed where plugins #include them from
# (<allinea_metric_plugin_api.h>), and their pkg-config file:
# cc -fPIC -shared $(pkg-config --cflags mapsample-plugin) ...
# (mapsample/maplog.h and maps_error.h install with lib/log.)
# '=' because Makefile.am does not start include_HEADERS empty; if it
# ever does, make this '+='.
include_HEADERS = lib/include/allinea_metric_plugin_api.h \
	lib/include/allinea_metric_plugin_errors.h \
	lib/include/allinea_metric_plugin_template.h \
	lib/include/allinea_metric_plugin_types.h \
	lib/include/allinea_safe_malloc.h \
	lib/include/allinea_safe_syscalls.h
pkgconfig_DATA += mapsample-plugin.pc
