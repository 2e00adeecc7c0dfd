# SPDX-License-Identifier: BSD-2-Clause
# test/plugins: the metric plugins the tests load.  All are libtool
# modules built shared (-rpath, though never installed) and, as plugin
# authors build them, without -fvisibility=hidden.

# For the sampler's plugin host (test/integration/metrics-host.sh): every
# host guarantee, an initialize that fails, a <preload> library.
check_LTLIBRARIES += test/plugins/libhosttest.la test/plugins/libinitfail.la \
	test/plugins/libpreloadmark.la
test_plugins_libhosttest_la_SOURCES = test/plugins/hosttest.c
test_plugins_libhosttest_la_CFLAGS = $(WARN_CFLAGS) -Wno-missing-prototypes
test_plugins_libhosttest_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere
test_plugins_libinitfail_la_SOURCES = test/plugins/initfail.c
test_plugins_libinitfail_la_CFLAGS = $(WARN_CFLAGS) -Wno-missing-prototypes
test_plugins_libinitfail_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere
test_plugins_libpreloadmark_la_SOURCES = test/plugins/preloadmark.c
test_plugins_libpreloadmark_la_CFLAGS = $(WARN_CFLAGS)
test_plugins_libpreloadmark_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere
EXTRA_DIST += test/plugins/hosttest.xml test/plugins/initfail.xml \
	test/plugins/preloadmark.xml

# The template example plugin, for the library checks of metric
# definitions (test/unit/test_metricdef).  custom1.c is the reference's
# plugin, built by the tests against the installed headers.
check_LTLIBRARIES += test/plugins/libtemplate1.la
test_plugins_libtemplate1_la_SOURCES = test/plugins/template1.c
test_plugins_libtemplate1_la_CFLAGS = $(WARN_CFLAGS)
test_plugins_libtemplate1_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere
EXTRA_DIST += test/plugins/README test/plugins/custom1.c \
	test/plugins/custom1.xml test/plugins/template1.xml

# A fake substrate host: drives a substrate plugin through the documented
# call order without mapsample (test/integration/substrate-otf2-driver.sh).
check_PROGRAMS += test/plugins/substrate-driver
test_plugins_substrate_driver_SOURCES = test/plugins/substrate-driver.c
