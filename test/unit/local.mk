# SPDX-License-Identifier: BSD-2-Clause
# Check unit tests, one program per module (test/unit/test_<module>.c).

# lib/log: the parser, driven by the encoder and logsynth
check_PROGRAMS += test/unit/test_maplog
test_unit_test_maplog_SOURCES = test/unit/test_maplog.c
test_unit_test_maplog_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_maplog_LDADD = test/common/liblogsynth.la \
	lib/log/libmaplog_core.la $(CHECK_LIBS)
TESTS += test/unit/test_maplog

# lib/log: the encoder
check_PROGRAMS += test/unit/test_mapwrite
test_unit_test_mapwrite_SOURCES = test/unit/test_mapwrite.c
test_unit_test_mapwrite_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_mapwrite_LDADD = lib/log/libmaplog_core.la $(CHECK_LIBS)
TESTS += test/unit/test_mapwrite

# lib/log: the chunk checksum
check_PROGRAMS += test/unit/test_crc32c
test_unit_test_crc32c_SOURCES = test/unit/test_crc32c.c
test_unit_test_crc32c_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
test_unit_test_crc32c_LDADD = lib/log/libmaplog_core.la $(CHECK_LIBS)
TESTS += test/unit/test_crc32c
