# SPDX-License-Identifier: BSD-2-Clause
# plugins/substrate-otf2: the otf2 substrate plugin, which writes an OTF2
# trace next to the log (mapsample-substrate-otf2(7)).  Built when
# configure found libotf2 (HAVE_OTF2); a libtool module named
# libmapsample_substrate_otf2, installed with the other substrate
# plugins in $(pkglibdir)/substrates.  Loaded into the profiled
# program like metric plugins: no sanitizers, only the public headers.
# (Automake distributes the sources of a conditional library whether it
# is built or not.)
if HAVE_OTF2
otf2substratedir = $(pkglibdir)/substrates
otf2substrate_LTLIBRARIES = \
	plugins/substrate-otf2/libmapsample_substrate_otf2.la
plugins_substrate_otf2_libmapsample_substrate_otf2_la_SOURCES = \
	plugins/substrate-otf2/otf2.c plugins/substrate-otf2/otf2_defs.c \
	plugins/substrate-otf2/otf2_i.h plugins/substrate-otf2/otf2_tables.c \
	plugins/substrate-otf2/otf2_tables.h
plugins_substrate_otf2_libmapsample_substrate_otf2_la_CPPFLAGS = \
	-I$(top_srcdir)/lib/include -D_GNU_SOURCE $(OTF2_CFLAGS)
plugins_substrate_otf2_libmapsample_substrate_otf2_la_CFLAGS = \
	$(WARN_CFLAGS) -fvisibility=hidden
plugins_substrate_otf2_libmapsample_substrate_otf2_la_LDFLAGS = \
	-module -avoid-version -shared
plugins_substrate_otf2_libmapsample_substrate_otf2_la_LIBADD = \
	$(OTF2_LIBS) -lpthread

# A library the tests preload to make the plugin slow, so that the host
# drops its events (test/integration/substrate-otf2.sh): not linked with
# the sanitizers, as it goes into the profiled program.
check_LTLIBRARIES += test/plugins/libotf2slow.la
test_plugins_libotf2slow_la_SOURCES = test/plugins/otf2slow.c
test_plugins_libotf2slow_la_CPPFLAGS = $(OTF2_CFLAGS)
test_plugins_libotf2slow_la_CFLAGS = $(WARN_CFLAGS) -Wno-missing-prototypes
test_plugins_libotf2slow_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere
test_plugins_libotf2slow_la_LIBADD = -ldl
endif

dist_man_MANS += man/mapsample-substrate-otf2.7

# The tests know whether the plugin was built.
AM_TESTS_ENVIRONMENT += HAVE_OTF2='$(HAVE_OTF2)'; export HAVE_OTF2;
