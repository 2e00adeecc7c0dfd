# SPDX-License-Identifier: BSD-2-Clause
# Fuzzing the log parser.  test/fuzz/replay runs the fuzz target over the
# seed corpus in every `make check`, with any compiler.  With
# `configure CC=clang --enable-fuzzing`, test/fuzz/fuzz_maplog is the
# libFuzzer binary: the parser sources are compiled into it so that they
# carry coverage instrumentation; test/fuzz/run-fuzz.sh runs it for CI.
# `make fuzz-seeds` regenerates the committed seeds with test/fuzz/mkseeds.

check_PROGRAMS += test/fuzz/replay test/fuzz/mkseeds
TESTS += test/fuzz/replay
# Reproducers of parser bugs not fixed yet: replay reports them without
# failing.  Take each off once the fix is in (replay says when it passes).
FUZZ_KNOWN_BUGS =
AM_TESTS_ENVIRONMENT += FUZZ_KNOWN_BUGS='$(FUZZ_KNOWN_BUGS)'; \
	export FUZZ_KNOWN_BUGS;
test_fuzz_replay_SOURCES = test/fuzz/replay.c test/fuzz/fuzz_maplog.c
test_fuzz_replay_LDADD = lib/log/libmaplog_core.la

test_fuzz_mkseeds_SOURCES = test/fuzz/mkseeds.c
test_fuzz_mkseeds_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/test/common
test_fuzz_mkseeds_LDADD = test/common/liblogsynth.la

if FUZZING
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined
noinst_PROGRAMS += test/fuzz/fuzz_maplog
test_fuzz_fuzz_maplog_SOURCES = test/fuzz/fuzz_maplog.c lib/log/maplog.c \
	lib/log/maplog_body.c lib/log/maplog_input.c lib/log/maplog_cpu.c \
	lib/log/crc32c.c lib/log/maps_error.c lib/log/mapwrite.c
test_fuzz_fuzz_maplog_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_MAPLOG_MUTATOR
test_fuzz_fuzz_maplog_CFLAGS = $(AM_CFLAGS) -g -fno-omit-frame-pointer \
	-fsanitize=fuzzer-no-link $(FUZZ_SAN)
test_fuzz_fuzz_maplog_LDFLAGS = -fsanitize=fuzzer $(FUZZ_SAN)
endif

FUZZ_CORPUS = \
	test/fuzz/corpus/maplog/crash-new-record-types-returned \
	test/fuzz/corpus/maplog/crash-empty-first-stack-null-offset \
	test/fuzz/corpus/maplog/crash-feed-frees-map-in-buildid \
	test/fuzz/corpus/maplog/crash-file-lseek-past-end \
	test/fuzz/corpus/maplog/crash-pieces-move-eof-in-zero-space \
	test/fuzz/corpus/maplog/crash-pieces-move-truncated-eof \
	test/fuzz/corpus/maplog/crash-stack-copies-amplify-memory \
	test/fuzz/corpus/maplog/damaged-file-header-crc \
	test/fuzz/corpus/maplog/damaged-flip-chunk-header \
	test/fuzz/corpus/maplog/damaged-flip-open-payload \
	test/fuzz/corpus/maplog/damaged-flip-sealed-payload \
	test/fuzz/corpus/maplog/damaged-garbage-between-chunks \
	test/fuzz/corpus/maplog/damaged-magic \
	test/fuzz/corpus/maplog/damaged-open-truncated \
	test/fuzz/corpus/maplog/damaged-truncated \
	test/fuzz/corpus/maplog/damaged-truncated-chunk-header \
	test/fuzz/corpus/maplog/damaged-truncated-in-header \
	test/fuzz/corpus/maplog/damaged-used-over-capacity \
	test/fuzz/corpus/maplog/damaged-version \
	test/fuzz/corpus/maplog/raw-all-records \
	test/fuzz/corpus/maplog/raw-frame-limit \
	test/fuzz/corpus/maplog/raw-gaps-and-slack \
	test/fuzz/corpus/maplog/raw-open-used-past-end \
	test/fuzz/corpus/maplog/raw-record-errors \
	test/fuzz/corpus/maplog/synth-all-types \
	test/fuzz/corpus/maplog/synth-data-offset-4096 \
	test/fuzz/corpus/maplog/synth-deep-stacks \
	test/fuzz/corpus/maplog/synth-multiproc-1k-chunks \
	test/fuzz/corpus/maplog/synth-no-dedup \
	test/fuzz/corpus/maplog/synth-open-chunks \
	test/fuzz/corpus/maplog/synth-tiny
EXTRA_DIST += test/fuzz/run-fuzz.sh $(FUZZ_CORPUS)

# Rewrites the seeds in the source tree; review the diff before committing.
fuzz-seeds: test/fuzz/mkseeds$(EXEEXT)
	$(MKDIR_P) $(srcdir)/test/fuzz/corpus/maplog
	test/fuzz/mkseeds $(srcdir)/test/fuzz/corpus/maplog
.PHONY: fuzz-seeds

# lib/defs' XML-checking core and colours, compiled into both XML fuzzers
# so that they carry coverage instrumentation too.
FUZZ_DEFS_CORE = lib/defs/xmlcheck.c lib/defs/colour.c lib/common/mem.c \
	lib/common/trust.c

# The metric definition parser (lib/defs): test/fuzz/replay_metricdef
# runs fuzz_metricdef.c over test/fuzz/corpus/metricdef in every make check
# (replay-metricdef.sh names that corpus); with --enable-fuzzing,
# test/fuzz/fuzz_metricdef is its libFuzzer binary.
check_PROGRAMS += test/fuzz/replay_metricdef
TESTS += test/fuzz/replay-metricdef.sh
test_fuzz_replay_metricdef_SOURCES = test/fuzz/replay.c \
	test/fuzz/fuzz_metricdef.c
test_fuzz_replay_metricdef_LDADD = lib/defs/libdefs.la
if FUZZING
noinst_PROGRAMS += test/fuzz/fuzz_metricdef
test_fuzz_fuzz_metricdef_SOURCES = test/fuzz/fuzz_metricdef.c \
	$(FUZZ_DEFS_CORE) lib/defs/metricdef.c lib/defs/metricdef_parse.c \
	lib/defs/metricdef_file.c \
	lib/defs/metricdef_check.c lib/defs/metricdef_search.c
test_fuzz_fuzz_metricdef_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPKGDATADIR='"$(pkgdatadir)"'
test_fuzz_fuzz_metricdef_CFLAGS = $(AM_CFLAGS) $(EXPAT_CFLAGS) -g \
	-fno-omit-frame-pointer -fsanitize=fuzzer-no-link $(FUZZ_SAN)
test_fuzz_fuzz_metricdef_LDFLAGS = -fsanitize=fuzzer $(FUZZ_SAN)
test_fuzz_fuzz_metricdef_LDADD = $(EXPAT_LIBS) -ldl
endif
FUZZ_METRICDEF_CORPUS = \
	test/fuzz/corpus/metricdef/colour-hex9 \
	test/fuzz/corpus/metricdef/colour-rgb \
	test/fuzz/corpus/metricdef/colours-one-line.xml \
	test/fuzz/corpus/metricdef/errors-everything.xml \
	test/fuzz/corpus/metricdef/errors-not-well-formed.xml \
	test/fuzz/corpus/metricdef/errors-root.xml \
	test/fuzz/corpus/metricdef/valid-arm-extensions.xml \
	test/fuzz/corpus/metricdef/valid-custom1.xml \
	test/fuzz/corpus/metricdef/valid-full.xml \
	test/fuzz/corpus/metricdef/valid-template1.xml
EXTRA_DIST += test/fuzz/replay-metricdef.sh $(FUZZ_METRICDEF_CORPUS)

# The partial report parser (lib/defs/partial*.c): test/fuzz/replay_partial
# runs fuzz_partial.c over test/fuzz/corpus/partial in every make check
# (replay-partial.sh names that corpus); with --enable-fuzzing,
# test/fuzz/fuzz_partial is its libFuzzer binary.
check_PROGRAMS += test/fuzz/replay_partial
TESTS += test/fuzz/replay-partial.sh
test_fuzz_replay_partial_SOURCES = test/fuzz/replay.c test/fuzz/fuzz_partial.c
test_fuzz_replay_partial_LDADD = lib/report/out/libreportout.la
if FUZZING
noinst_PROGRAMS += test/fuzz/fuzz_partial
test_fuzz_fuzz_partial_SOURCES = test/fuzz/fuzz_partial.c \
	$(FUZZ_DEFS_CORE) lib/defs/partial.c lib/defs/partial_parse.c \
	lib/defs/partial_plain.c lib/report/partial_eval.c \
	lib/report/out/partial_text.c lib/report/out/text_clean.c \
	lib/model/units.c lib/model/logread.c \
	lib/model/metrics.c lib/model/window.c lib/model/keymap.c
test_fuzz_fuzz_partial_CFLAGS = $(AM_CFLAGS) $(EXPAT_CFLAGS) -g \
	-fno-omit-frame-pointer -fsanitize=fuzzer-no-link $(FUZZ_SAN)
test_fuzz_fuzz_partial_LDFLAGS = -fsanitize=fuzzer $(FUZZ_SAN)
# the rest of the model (model_reread() and what it calls), uninstrumented
test_fuzz_fuzz_partial_LDADD = lib/model/libmodel.la lib/log/libmaplog_core.la \
	$(EXPAT_LIBS) -lm
endif
FUZZ_PARTIAL_CORPUS = \
	test/fuzz/corpus/partial/colours.xml \
	test/fuzz/corpus/partial/deep.xml \
	test/fuzz/corpus/partial/encoding-latin1.xml \
	test/fuzz/corpus/partial/errors-everything.xml \
	test/fuzz/corpus/partial/errors-not-well-formed.xml \
	test/fuzz/corpus/partial/errors-reserved.xml \
	test/fuzz/corpus/partial/errors-root.xml \
	test/fuzz/corpus/partial/plain-text \
	test/fuzz/corpus/partial/text-markup.xml \
	test/fuzz/corpus/partial/valid-reference-example.xml \
	test/fuzz/corpus/partial/valid-scenario.xml
EXTRA_DIST += test/fuzz/replay-partial.sh $(FUZZ_PARTIAL_CORPUS)

# The --compare rule parser (lib/report/rules.c): test/fuzz/replay_rules
# runs fuzz_rules.c over test/fuzz/corpus/rules in every make check
# (replay-rules.sh names that corpus); with --enable-fuzzing,
# test/fuzz/fuzz_rules is its libFuzzer binary.
check_PROGRAMS += test/fuzz/replay_rules
TESTS += test/fuzz/replay-rules.sh
test_fuzz_replay_rules_SOURCES = test/fuzz/replay.c test/fuzz/fuzz_rules.c
test_fuzz_replay_rules_LDADD = lib/report/libreport.la -lm
if FUZZING
noinst_PROGRAMS += test/fuzz/fuzz_rules
test_fuzz_fuzz_rules_SOURCES = test/fuzz/fuzz_rules.c lib/report/rules.c \
	lib/common/mem.c
test_fuzz_fuzz_rules_CFLAGS = $(AM_CFLAGS) -g -fno-omit-frame-pointer \
	-fsanitize=fuzzer-no-link $(FUZZ_SAN)
test_fuzz_fuzz_rules_LDFLAGS = -fsanitize=fuzzer $(FUZZ_SAN)
test_fuzz_fuzz_rules_LDADD = -lm
endif
FUZZ_RULES_CORPUS = \
	test/fuzz/corpus/rules/crash-long-rule-column \
	test/fuzz/corpus/rules/error-metric-s \
	test/fuzz/corpus/rules/error-misc \
	test/fuzz/corpus/rules/error-nul \
	test/fuzz/corpus/rules/error-op \
	test/fuzz/corpus/rules/error-paren \
	test/fuzz/corpus/rules/error-quote \
	test/fuzz/corpus/rules/error-sigma-crlf \
	test/fuzz/corpus/rules/error-total-pp \
	test/fuzz/corpus/rules/names.rules \
	test/fuzz/corpus/rules/valid-all.rules
EXTRA_DIST += test/fuzz/replay-rules.sh $(FUZZ_RULES_CORPUS)

# The perf map parser (lib/report/perfmap.c; the file a JIT program
# writes in /tmp, copied into the log): test/fuzz/replay_perfmap runs
# fuzz_perfmap.c over test/fuzz/corpus/perfmap in every make check; with
# --enable-fuzzing, test/fuzz/fuzz_perfmap is its libFuzzer binary.
check_PROGRAMS += test/fuzz/replay_perfmap
TESTS += test/fuzz/replay-perfmap.sh
test_fuzz_replay_perfmap_SOURCES = test/fuzz/replay.c test/fuzz/fuzz_perfmap.c
test_fuzz_replay_perfmap_LDADD = lib/report/libreport.la -lm
if FUZZING
noinst_PROGRAMS += test/fuzz/fuzz_perfmap
test_fuzz_fuzz_perfmap_SOURCES = test/fuzz/fuzz_perfmap.c \
	lib/report/perfmap.c lib/common/mem.c
test_fuzz_fuzz_perfmap_CFLAGS = $(AM_CFLAGS) -g -fno-omit-frame-pointer \
	-fsanitize=fuzzer-no-link $(FUZZ_SAN)
test_fuzz_fuzz_perfmap_LDFLAGS = -fsanitize=fuzzer $(FUZZ_SAN)
endif
FUZZ_PERFMAP_CORPUS = \
	test/fuzz/corpus/perfmap/crlf-nul \
	test/fuzz/corpus/perfmap/errors \
	test/fuzz/corpus/perfmap/valid-node
EXTRA_DIST += test/fuzz/replay-perfmap.sh $(FUZZ_PERFMAP_CORPUS)
