# SPDX-License-Identifier: BSD-2-Clause
# Shell integration tests (test/integration/<cli>-<feature>.sh).

# The C programs of the man pages' EXAMPLES sections compile, link with
# libmaplog and do what the pages say.  They are built with this build's
# compiler and flags, so that a sanitizer build links them with the
# sanitizer runtime its libmaplog needs.
TESTS += test/integration/man-examples.sh
EXTRA_DIST += test/integration/man-examples.sh
AM_TESTS_ENVIRONMENT += MAN_EXAMPLES_CC='$(CC)' \
	MAN_EXAMPLES_CFLAGS='$(AM_CFLAGS) $(CFLAGS)' \
	MAN_EXAMPLES_LDFLAGS='$(AM_LDFLAGS) $(LDFLAGS)'; \
	export MAN_EXAMPLES_CC MAN_EXAMPLES_CFLAGS MAN_EXAMPLES_LDFLAGS;

TESTS += test/integration/mapreport-basic.sh
EXTRA_DIST += test/integration/mapreport-basic.sh

# mapsample on the programs of test/programs (built by make check), read
# back with mapreport.  mapsample-lib.sh holds their shared helpers.
TESTS += test/integration/mapsample-basic.sh \
	test/integration/mapsample-threads.sh \
	test/integration/mapsample-processes.sh \
	test/integration/mapsample-signals.sh \
	test/integration/mapsample-launcher.sh \
	test/integration/mapsample-exports.sh \
	test/integration/mapsample-rate.sh \
	test/integration/mapsample-dlopen.sh \
	test/integration/mapreport-stripped.sh
EXTRA_DIST += test/integration/mapsample-lib.sh \
	test/integration/mapreport-stripped.sh \
	test/integration/mapsample-dlopen.sh \
	test/integration/mapsample-basic.sh \
	test/integration/mapsample-threads.sh \
	test/integration/mapsample-processes.sh \
	test/integration/mapsample-signals.sh \
	test/integration/mapsample-launcher.sh \
	test/integration/mapsample-exports.sh \
	test/integration/mapsample-rate.sh

# The public plugin headers (lib/include/allinea_*.h): the reference's
# custom1.c and the template example compile against them through
# pkg-config (the build tree's mapsample-plugin-uninstalled.pc, then the
# installed mapsample-plugin.pc), with the documented types.
TESTS += test/integration/plugin-headers.sh
EXTRA_DIST += test/integration/plugin-headers.sh
AM_TESTS_ENVIRONMENT += PLUGIN_HEADERS_CC='$(CC)'; export PLUGIN_HEADERS_CC;

# Metric plugins under the sampler: the host side of the plugin API
# (loading, initialize failures, getters in the signal handler, errors,
# sentinels, divideBySampleTime, backfill, safe_* calls under 16 threads)
# with the test plugins of test/plugins (built in test/plugins/local.mk),
# and the I/O accounting.
TESTS += test/integration/metrics-host.sh
EXTRA_DIST += test/integration/metrics-host.sh
TESTS += test/integration/metrics-io.sh
EXTRA_DIST += test/integration/metrics-io.sh

# --- mapreport's metrics section ---
# The metrics scenario of test/common/mklog (--metrics) against a golden
# section, whatever the chunk size; logs with and without metrics.
TESTS += test/integration/mapreport-metrics.sh
EXTRA_DIST += test/integration/mapreport-metrics.sh \
	test/integration/golden/mapreport-metrics.txt

# mapsample-plugin(3): the plugin of its EXAMPLES section compiles against
# the source tree's headers (-Wall -Wextra -Werror, and with the page's
# pkg-config command), exports the getter its XML names, and returns the
# value the page says when loaded by a host linked with libpluginapi.
TESTS += test/integration/plugin-man-example.sh
EXTRA_DIST += test/integration/plugin-man-example.sh

# make installcheck (and so make distcheck): the installed mapsample runs
# a plugin built against the installed headers, and the installed metrics.
EXTRA_DIST += test/integration/installcheck.sh
installcheck-local:
	CC='$(CC)' $(SHELL) $(top_srcdir)/test/integration/installcheck.sh \
		'$(DESTDIR)$(bindir)' '$(DESTDIR)$(pkgconfigdir)' '$(top_srcdir)'

# Partial reports (mapreport(1), PARTIAL REPORTS) on the deterministic
# logs of test/integration/mkpartlog; the definitions it reads (among them
# the reference's example) are in test/integration/partial.
check_PROGRAMS += test/integration/mkpartlog
test_integration_mkpartlog_SOURCES = test/integration/mkpartlog.c
test_integration_mkpartlog_LDADD = lib/log/libmaplog_core.la
TESTS += test/integration/mapreport-partial.sh
EXTRA_DIST += test/integration/mapreport-partial.sh \
	test/integration/partial/reference-example.xml \
	test/integration/partial/reference-example-reserved.xml \
	test/integration/partial/scenario.xml \
	test/integration/golden/mapreport-partial.txt \
	test/integration/golden/mapreport-partial-example.txt

# --- mapreport --json ---
# Valid JSON (Debian's python3 -m json.tool), key values checked by
# json/check-json.py, the metrics scenario against a golden report, a
# truncated log and a real run of test/programs/hot.
TESTS += test/integration/mapreport-json.sh
EXTRA_DIST += test/integration/mapreport-json.sh \
	test/integration/golden/mapreport-json.json \
	test/integration/json/check-json.py test/integration/json/scenario.xml

# --- mapreport --html ---
# The self-contained page: nothing fetched, summary, flame graph data, a
# chart per metric, activity, functions, errors (synthetic logs and a
# real run of test/programs/threadsrun); then in headless Chromium: no
# console message, the flame graph drawn and searched, a screenshot kept
# as mapreport-html.png in the build tree (skipped without Chromium).
TESTS += test/integration/mapreport-html.sh \
	test/integration/mapreport-html-browser.sh
EXTRA_DIST += test/integration/mapreport-html.sh \
	test/integration/mapreport-html-browser.sh
CLEANFILES += mapreport-html.png

# mapreport's progress line on a terminal (script(1) gives it one).
TESTS += test/integration/mapreport-progress.sh
EXTRA_DIST += test/integration/mapreport-progress.sh

# The module map (README.md, Layout): no module calls up, no two files
# call each other, no file over 1000 lines without a reason.
TESTS += test/integration/layers.sh
EXTRA_DIST += test/integration/layers.sh test/integration/layers.py

# Credential changes and user namespaces under mapsample: setpriv, su,
# unshare -U and a program making the calls itself (issue 14 item 7).
TESTS += test/integration/mapsample-privilege.sh
EXTRA_DIST += test/integration/mapsample-privilege.sh

# mapreport --pprof read back by go tool pprof (skipped without golang-go).
TESTS += test/integration/mapreport-pprof.sh
EXTRA_DIST += test/integration/mapreport-pprof.sh

# mapreport --speedscope and --trace checked against their formats'
# rules and the JSON report (python3).
TESTS += test/integration/mapreport-viewers.sh
EXTRA_DIST += test/integration/mapreport-viewers.sh
