# SPDX-License-Identifier: BSD-2-Clause
# plugins/substrates: the substrate (event) plugins shipped with mapsample
# and the header plugin authors build them with (<mapsample/substrate.h>,
# mapsample-substrate(3)).  Each is a libtool module named
# libmapsample_substrate_NAME, installed in $(pkglibdir)/substrates, where
# `mapsample --substrate NAME` finds it.  Like metric plugins they are
# loaded into the profiled program: no sanitizers, only the public
# headers.
mapsampleinclude_HEADERS += lib/include/mapsample/substrate.h

mapsamplesubstratedir = $(pkglibdir)/substrates
mapsamplesubstrate_LTLIBRARIES = \
	plugins/substrates/libmapsample_substrate_print_events.la
plugins_substrates_libmapsample_substrate_print_events_la_SOURCES = \
	plugins/substrates/print_events.c
plugins_substrates_libmapsample_substrate_print_events_la_CPPFLAGS = \
	-I$(top_srcdir)/lib/include -D_GNU_SOURCE
plugins_substrates_libmapsample_substrate_print_events_la_CFLAGS = \
	$(WARN_CFLAGS) -fvisibility=hidden
plugins_substrates_libmapsample_substrate_print_events_la_LDFLAGS = \
	-module -avoid-version -shared
