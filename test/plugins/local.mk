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

# Getters that break the rules (sleep, spin, malloc, crash) and a good
# one beside them, for test/integration/metrics-faults.sh.
check_LTLIBRARIES += test/plugins/libbadgetter.la test/plugins/libgoodgetter.la
test_plugins_libbadgetter_la_SOURCES = test/plugins/badgetter.c
test_plugins_libbadgetter_la_CFLAGS = $(WARN_CFLAGS) -Wno-missing-prototypes
test_plugins_libbadgetter_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere
test_plugins_libgoodgetter_la_SOURCES = test/plugins/goodgetter.c
test_plugins_libgoodgetter_la_CFLAGS = $(WARN_CFLAGS) -Wno-missing-prototypes
test_plugins_libgoodgetter_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere
EXTRA_DIST += test/plugins/badgetter.xml test/plugins/goodgetter.xml

# A plugin whose constructor says who loaded it
# (test/integration/metrics-trust.sh).
check_LTLIBRARIES += test/plugins/libctormark.la
test_plugins_libctormark_la_SOURCES = test/plugins/ctormark.c
test_plugins_libctormark_la_CFLAGS = $(WARN_CFLAGS) -Wno-missing-prototypes
test_plugins_libctormark_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere
EXTRA_DIST += test/plugins/ctormark.xml

# Substrate plugins for the substrate host (test/integration/
# substrate-host.sh, test/bench/substrate-cost.sh): subtest does what
# SUBTEST_MODE says; subnew claims an interface version newer than the
# host's; subundecl sets an undeclared[] slot.
subtest_ldflags = -module -avoid-version -shared -rpath /nowhere
check_LTLIBRARIES += test/plugins/libmapsample_substrate_subtest.la \
	test/plugins/libmapsample_substrate_subnew.la \
	test/plugins/libmapsample_substrate_subundecl.la
test_plugins_libmapsample_substrate_subtest_la_SOURCES = test/plugins/subtest.c
test_plugins_libmapsample_substrate_subtest_la_CFLAGS = $(WARN_CFLAGS)
test_plugins_libmapsample_substrate_subtest_la_LDFLAGS = $(subtest_ldflags)
test_plugins_libmapsample_substrate_subnew_la_SOURCES = test/plugins/subtest.c
test_plugins_libmapsample_substrate_subnew_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DSUBTEST_NAME=subnew -DSUBTEST_VERSION=99
test_plugins_libmapsample_substrate_subnew_la_CFLAGS = $(WARN_CFLAGS)
test_plugins_libmapsample_substrate_subnew_la_LDFLAGS = $(subtest_ldflags)
test_plugins_libmapsample_substrate_subundecl_la_SOURCES = \
	test/plugins/subtest.c
test_plugins_libmapsample_substrate_subundecl_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DSUBTEST_NAME=subundecl -DSUBTEST_UNDECLARED
test_plugins_libmapsample_substrate_subundecl_la_CFLAGS = $(WARN_CFLAGS)
test_plugins_libmapsample_substrate_subundecl_la_LDFLAGS = $(subtest_ldflags)

# A fake substrate host: drives a substrate plugin through the documented
# call order without mapsample (test/integration/substrate-otf2-driver.sh).
check_PROGRAMS += test/plugins/substrate-driver
test_plugins_substrate_driver_SOURCES = test/plugins/substrate-driver.c

# Metrics that give the process's pid and the sample time, for the
# filters on metrics (test/integration/mapreport-filter-metrics.sh).
check_LTLIBRARIES += test/plugins/libpidvalue.la
test_plugins_libpidvalue_la_SOURCES = test/plugins/pidvalue.c
test_plugins_libpidvalue_la_CFLAGS = $(WARN_CFLAGS) -Wno-missing-prototypes
test_plugins_libpidvalue_la_LDFLAGS = -module -avoid-version -shared \
	-rpath /nowhere
EXTRA_DIST += test/plugins/pidvalue.xml
