#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# plugin-headers: the public headers of the Allinea/Arm MAP metric plugin
# interface (lib/include/allinea_*.h) let plugins written for Arm MAP
# compile unchanged, through pkg-config as the issue promises:
#   - pkg-config finds mapsample-plugin in the build tree (the uninstalled
#     .pc) and after `make install` (the installed one);
#   - the reference's custom1.c (test/plugins/custom1.c) compiles with the
#     exact command of the documentation, with no diagnostic from our
#     headers, and with -Wall -Werror (-Wno-return-type: the example's own
#     functions end without a return statement, a bug of the example);
#     with gcc and clang, as C99 and C11; the only -Wall -Wextra warnings
#     are in the example's own lines;
#   - printf format checking is off by default (custom1.c passes a char *
#     for %d) and on with -DMAPSAMPLE_PLUGIN_CHECK_FORMATS;
#   - the libraries define the template's functions and leave the API
#     undefined, for the sampler to provide;
#   - the template example (test/plugins/template1.c) compiles with
#     -std=c89/c99/c11 -pedantic -Wall -Wextra -Werror;
#   - every header compiles on its own, in C and C++, and C++ sees the API
#     with C linkage;
#   - every function has exactly the documented type (assigned to a
#     pointer of that type under -Werror) and the handles are uintptr_t.
#
# Environment: top_srcdir, top_builddir (exported by make check),
# PLUGIN_HEADERS_CC (the build's compiler, exported by
# test/integration/local.mk; default cc).  Exit 77 (skip) without a C
# compiler or pkg-config.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "${top_srcdir:-$here/../..}" && pwd)
top_builddir=$(cd "${top_builddir:-.}" && pwd)
cc=${PLUGIN_HEADERS_CC:-${CC:-cc}}
LC_ALL=C
export LC_ALL

if ! command -v "${cc%% *}" >/dev/null 2>&1; then
	echo "SKIP: no C compiler (${cc%% *})"
	exit 77
fi
if ! command -v pkg-config >/dev/null 2>&1; then
	echo "SKIP: no pkg-config"
	exit 77
fi
if [ ! -f "$top_builddir/mapsample-plugin-uninstalled.pc" ]; then
	echo "not ok - $top_builddir/mapsample-plugin-uninstalled.pc is" \
		"missing: configure creates it"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/plugin-headers.XXXXXX")
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	rm -rf "$tmp"
}
trap cleanup EXIT

failed=0
pass() {
	echo "ok - $*"
}
fail() {
	echo "not ok - $*"
	failed=$((failed + 1))
}
show() {
	sed 's/^/    | /' "$1"
}

incdir=$top_srcdir/lib/include
headers="allinea_metric_plugin_api.h allinea_metric_plugin_errors.h
allinea_metric_plugin_template.h allinea_metric_plugin_types.h
allinea_safe_malloc.h allinea_safe_syscalls.h"

# The build tree's .pc, as a plugin author's build would use it.
PKG_CONFIG_PATH=$top_builddir
export PKG_CONFIG_PATH

case_pkgconfig() {
	if ! cflags=$(pkg-config --cflags mapsample-plugin 2>"$tmp/pc.err"); then
		fail "pkg-config --cflags mapsample-plugin"
		show "$tmp/pc.err"
		return
	fi
	# without the trailing blank pkg-config prints; the path may be
	# spelt through ".." (as in make distcheck's VPATH build): compare
	# the directories it names
	cflags=${cflags% }
	dir=${cflags#-I}
	if [ "${cflags%%[!-I]*}" = "-I" ] && [ -d "$dir" ] &&
		[ "$(cd "$dir" && pwd -P)" = "$(cd "$incdir" && pwd -P)" ]; then
		pass "pkg-config --cflags mapsample-plugin: $cflags"
	else
		fail "pkg-config --cflags mapsample-plugin: '$cflags'," \
			"want -I$incdir"
	fi
}

# The documented command, in a directory holding only custom1.c, so that
# nothing but pkg-config can lead the compiler to the headers.
case_custom1_documented_command() {
	mkdir "$tmp/c1"
	cp "$top_srcdir/test/plugins/custom1.c" "$tmp/c1/"
	# shellcheck disable=SC2046
	if (cd "$tmp/c1" && $cc -fPIC -shared \
		$(pkg-config --cflags mapsample-plugin) custom1.c \
		-o libcustom1.so) >"$tmp/c1.log" 2>&1 &&
	    [ -f "$tmp/c1/libcustom1.so" ]; then
		pass "custom1.c: cc -fPIC -shared \$(pkg-config --cflags" \
			"mapsample-plugin) custom1.c -o libcustom1.so"
	else
		fail "custom1.c does not compile with the documented command"
		show "$tmp/c1.log"
		return
	fi
	if grep -q 'allinea_' "$tmp/c1.log"; then
		fail "custom1.c: diagnostics mention the API"
		show "$tmp/c1.log"
	else
		pass "custom1.c: no diagnostic about the API"
	fi
}

# compile NAME CC FLAGS...: builds custom1.c into $tmp/NAME.so; log in
# $tmp/NAME.log
compile_custom1() {
	name=$1
	compiler=$2
	shift 2
	# shellcheck disable=SC2086
	$compiler -fPIC -shared "$@" -I"$incdir" \
		"$top_srcdir/test/plugins/custom1.c" -o "$tmp/$name.so" \
		>"$tmp/$name.log" 2>&1
}

case_custom1_werror() {
	for compiler in "$cc" gcc clang; do
		command -v "${compiler%% *}" >/dev/null 2>&1 || continue
		for std in c99 c11 gnu11; do
			if compile_custom1 werror "$compiler" -std=$std -Wall \
				-Werror -Wno-return-type; then
				pass "custom1.c: $compiler -std=$std -Wall -Werror" \
					"-Wno-return-type"
			else
				fail "custom1.c: $compiler -std=$std -Wall -Werror" \
					"-Wno-return-type"
				show "$tmp/werror.log"
			fi
		done
	done
}

# Every warning -Wall -Wextra gives is about the example's own code: a
# missing return or an unused parameter, on a line of custom1.c.
case_custom1_only_own_warnings() {
	if ! compile_custom1 wextra "$cc" -Wall -Wextra; then
		fail "custom1.c: -Wall -Wextra fails"
		show "$tmp/wextra.log"
		return
	fi
	grep -E 'warning:|error:' "$tmp/wextra.log" >"$tmp/wextra.w" || :
	if grep -Ev '^[^:]*custom1\.c:[0-9]+:[0-9]+: warning: .*\[-W(return-type|unused-parameter)\]$' \
		"$tmp/wextra.w" >"$tmp/wextra.other"; then
		fail "custom1.c: warnings other than the example's own"
		show "$tmp/wextra.other"
	else
		pass "custom1.c: -Wall -Wextra warns only about the example's" \
			"own code ($(wc -l <"$tmp/wextra.w") warnings)"
	fi
}

case_custom1_formats() {
	if compile_custom1 fmt "$cc" -Wformat -Werror=format \
		-Wno-return-type; then
		pass "custom1.c: no format checking by default"
	else
		fail "custom1.c: format warnings without" \
			"MAPSAMPLE_PLUGIN_CHECK_FORMATS"
		show "$tmp/fmt.log"
	fi
	compile_custom1 fmt2 "$cc" -DMAPSAMPLE_PLUGIN_CHECK_FORMATS -Wformat \
		-Wno-return-type || :
	n=$(grep -c "custom1\.c:[0-9]*:[0-9]*: warning: format .%d. expects" \
		"$tmp/fmt2.log" || :)
	if [ "$n" = 2 ]; then
		pass "custom1.c: MAPSAMPLE_PLUGIN_CHECK_FORMATS finds its two" \
			"%d given a string"
	else
		fail "custom1.c: MAPSAMPLE_PLUGIN_CHECK_FORMATS: want 2" \
			"format warnings, got $n"
		show "$tmp/fmt2.log"
	fi
}

# symbols LIB: "T name" / "U name" lines of LIB's dynamic symbols
symbols() {
	nm -D "$1" | awk '$NF ~ /^allinea_|^sample_|^start_|^stop_|^template1_/ {
		print ($1 == "U" ? "U" : $(NF - 1)), $NF }' | sort
}

case_custom1_symbols() {
	if ! command -v nm >/dev/null 2>&1; then
		echo "# no nm: symbols of libcustom1.so not checked"
		return
	fi
	symbols "$tmp/c1/libcustom1.so" >"$tmp/syms"
	cat >"$tmp/syms.want" <<'EOF'
T allinea_plugin_cleanup
T allinea_plugin_initialize
T sample_interrupts
U allinea_get_current_time
U allinea_safe_close
U allinea_safe_open
U allinea_safe_read_line
U allinea_set_metric_error_messagef
U allinea_set_plugin_error_messagef
EOF
	if cmp -s "$tmp/syms" "$tmp/syms.want"; then
		pass "libcustom1.so: defines the template's functions, leaves" \
			"the API to the sampler"
	else
		fail "libcustom1.so: unexpected symbols"
		diff "$tmp/syms.want" "$tmp/syms" | sed 's/^/    | /'
	fi
}

case_template1() {
	for std in c89 c99 c11; do
		# shellcheck disable=SC2046
		if $cc -std=$std -pedantic -Wall -Wextra -Wshadow \
			-Wstrict-prototypes -Wmissing-prototypes -Werror \
			-fPIC -shared $(pkg-config --cflags mapsample-plugin) \
			"$top_srcdir/test/plugins/template1.c" \
			-o "$tmp/libtemplate1.so" >"$tmp/t1.log" 2>&1; then
			pass "template1.c: -std=$std -pedantic -Wall -Wextra -Werror"
		else
			fail "template1.c: -std=$std -pedantic -Wall -Wextra -Werror"
			show "$tmp/t1.log"
		fi
	done
	if command -v nm >/dev/null 2>&1; then
		symbols "$tmp/libtemplate1.so" | grep '^T' >"$tmp/t1.syms"
		cat >"$tmp/t1.want" <<'EOF'
T allinea_plugin_cleanup
T allinea_plugin_initialize
T start_profiling
T stop_profiling
T template1_backfill
T template1_calls
T template1_calls_total
T template1_uptime
EOF
		if cmp -s "$tmp/t1.syms" "$tmp/t1.want"; then
			pass "libtemplate1.so: exports its getters and callbacks"
		else
			fail "libtemplate1.so: unexpected exports"
			diff "$tmp/t1.want" "$tmp/t1.syms" | sed 's/^/    | /'
		fi
	fi
}

case_headers_alone() {
	cxx=
	for c in c++ g++ clang++; do
		if command -v $c >/dev/null 2>&1; then
			cxx=$c
			break
		fi
	done
	for h in $headers; do
		printf '#include <%s>\n#include <%s>\nint header_alone;\n' \
			"$h" "$h" >"$tmp/alone.c"
		if $cc -std=c99 -pedantic -Wall -Wextra -Wstrict-prototypes \
			-Wmissing-prototypes -Wredundant-decls -Werror \
			-I"$incdir" -c "$tmp/alone.c" -o "$tmp/alone.o" \
			>"$tmp/alone.log" 2>&1; then
			pass "$h: compiles alone, twice, as C99"
		else
			fail "$h: does not compile alone as C99"
			show "$tmp/alone.log"
		fi
		[ -n "$cxx" ] || continue
		cp "$tmp/alone.c" "$tmp/alone.cc"
		if $cxx -std=c++11 -pedantic -Wall -Wextra -Werror -I"$incdir" \
			-c "$tmp/alone.cc" -o "$tmp/alone.o" >"$tmp/alone.log" 2>&1
		then
			pass "$h: compiles alone as C++11"
		else
			fail "$h: does not compile alone as C++11"
			show "$tmp/alone.log"
		fi
		if ! grep -q 'SPDX-License-Identifier: BSD-2-Clause' "$incdir/$h" ||
		    ! grep -q 'Allinea/Arm MAP Metric Plugin Interface' \
			"$incdir/$h" ||
		    ! grep -q 'extern "C"' "$incdir/$h"; then
			fail "$h: lacks the SPDX line, the interface statement" \
				"or extern \"C\""
		fi
	done
	if [ -z "$cxx" ]; then
		echo "# no C++ compiler: C++ linkage not checked"
		return
	fi
	cat >"$tmp/linkage.cc" <<'EOF'
#include <allinea_metric_plugin_api.h>
#include <allinea_metric_plugin_template.h>
extern "C" int cxx_getter(metric_id_t id, struct timespec *t, double *out)
{
	*t = allinea_get_current_time();
	*out = (double)allinea_get_logical_core_count();
	void *p = allinea_safe_malloc(16);
	allinea_safe_free(p);
	allinea_set_metric_error_message(id, 1, "x");
	return 0;
}
int allinea_plugin_initialize(plugin_id_t plugin_id, void *)
{
	allinea_set_plugin_error_messagef(plugin_id, 1, "%d", 1);
	return 0;
}
int allinea_plugin_cleanup(plugin_id_t, void *)
{
	return 0;
}
EOF
	if $cxx -std=c++11 -Wall -Wextra -Werror -fPIC -shared -I"$incdir" \
		"$tmp/linkage.cc" -o "$tmp/liblinkage.so" >"$tmp/linkage.log" 2>&1
	then
		symbols "$tmp/liblinkage.so" >"$tmp/linkage.syms"
		if grep -q '^T allinea_plugin_initialize$' "$tmp/linkage.syms" &&
		    grep -q '^U allinea_safe_malloc$' "$tmp/linkage.syms" &&
		    grep -q '^U allinea_get_current_time$' "$tmp/linkage.syms"
		then
			pass "C++: the API and the template have C linkage"
		else
			fail "C++: names are mangled"
			show "$tmp/linkage.syms"
		fi
	else
		fail "C++: a plugin does not compile"
		show "$tmp/linkage.log"
	fi
}

# The documented type of every function and handle, written here from the
# reference (sections 7 and 8), independently of the headers' text.
case_documented_types() {
	cat >"$tmp/types.c" <<'EOF'
#include <allinea_metric_plugin_api.h>
#include <allinea_metric_plugin_template.h>

_Static_assert(sizeof(metric_id_t) == sizeof(uintptr_t), "metric_id_t");
_Static_assert(sizeof(plugin_id_t) == sizeof(uintptr_t), "plugin_id_t");
uintptr_t *metric_id_is_uintptr = (metric_id_t *)0;
uintptr_t *plugin_id_is_uintptr = (plugin_id_t *)0;

/* allinea_metric_plugin_api.h */
int (*p_logical)(void) = allinea_get_logical_core_count;
int (*p_physical)(void) = allinea_get_physical_core_count;
int (*p_config)(const char *, const char *, char *, int) =
	allinea_read_config_file;
/* allinea_metric_plugin_errors.h */
void (*p_plugin_err)(plugin_id_t, int, const char *) =
	allinea_set_plugin_error_message;
void (*p_plugin_errf)(plugin_id_t, int, const char *, ...) =
	allinea_set_plugin_error_messagef;
void (*p_metric_err)(metric_id_t, int, const char *) =
	allinea_set_metric_error_message;
void (*p_metric_errf)(metric_id_t, int, const char *, ...) =
	allinea_set_metric_error_messagef;
/* allinea_safe_malloc.h */
void *(*p_malloc)(size_t) = allinea_safe_malloc;
void (*p_free)(void *) = allinea_safe_free;
void *(*p_calloc)(size_t, size_t) = allinea_safe_calloc;
void *(*p_realloc)(void *, size_t) = allinea_safe_realloc;
/* allinea_safe_syscalls.h */
struct timespec (*p_time)(void) = allinea_get_current_time;
int (*p_close)(int) = allinea_safe_close;
void (*p_fprintf)(int, const char *, ...) = allinea_safe_fprintf;
int (*p_open)(const char *, int, ...) = allinea_safe_open;
void (*p_printf)(const char *, ...) = allinea_safe_printf;
ssize_t (*p_read)(int, void *, size_t) = allinea_safe_read;
ssize_t (*p_read_all)(int, void *, size_t) = allinea_safe_read_all;
ssize_t (*p_read_line)(int, void *, size_t) = allinea_safe_read_line;
void (*p_vfprintf)(int, const char *, va_list) = allinea_safe_vfprintf;
ssize_t (*p_write)(int, const void *, size_t) = allinea_safe_write;
/* allinea_metric_plugin_template.h */
int (*p_cleanup)(plugin_id_t, void *) = allinea_plugin_cleanup;
int (*p_initialize)(plugin_id_t, void *) = allinea_plugin_initialize;
int (*p_double)(metric_id_t, struct timespec *, double *) =
	mymetric_getDoubleValue;
int (*p_int)(metric_id_t, struct timespec *, uint64_t *) =
	mymetric_getIntValue;
int (*p_start)(plugin_id_t) = start_profiling;
int (*p_stop)(plugin_id_t) = stop_profiling;
EOF
	if $cc -std=c11 -Wall -Wextra -Werror -I"$incdir" -c "$tmp/types.c" \
		-o "$tmp/types.o" >"$tmp/types.log" 2>&1; then
		pass "every function and handle has the documented type"
	else
		fail "a function or handle differs from the reference"
		show "$tmp/types.log"
	fi
}

# make install puts the headers in $(includedir) and mapsample-plugin.pc
# in $(libdir)/pkgconfig; the installed .pc compiles custom1.c.
case_installed() {
	dest=$tmp/dest
	if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" \
		DESTDIR="$dest" \
		install-includeHEADERS install-pkgconfigDATA \
		>"$tmp/install.log" 2>&1; then
		fail "make install-includeHEADERS install-pkgconfigDATA"
		show "$tmp/install.log"
		return
	fi
	pc=$(find "$dest" -name mapsample-plugin.pc | head -1)
	if [ -z "$pc" ]; then
		fail "mapsample-plugin.pc is not installed"
		return
	fi
	for h in $headers; do
		if [ -z "$(find "$dest" -path "*/include/$h")" ]; then
			fail "$h is not installed in \$(includedir)"
		fi
	done
	mkdir "$tmp/c2"
	cp "$top_srcdir/test/plugins/custom1.c" "$tmp/c2/"
	# $cflags is split into words on purpose
	# shellcheck disable=SC2086
	if cflags=$(PKG_CONFIG_PATH=$(dirname "$pc") \
		PKG_CONFIG_SYSROOT_DIR=$dest PKG_CONFIG_DISABLE_UNINSTALLED=1 \
		pkg-config --cflags mapsample-plugin) &&
	    (cd "$tmp/c2" && $cc -fPIC -shared $cflags custom1.c \
		-o libcustom1.so) >"$tmp/c2.log" 2>&1; then
		pass "installed: custom1.c compiles with the installed" \
			"mapsample-plugin.pc ($cflags)"
	else
		fail "installed: custom1.c does not compile with the" \
			"installed mapsample-plugin.pc"
		show "$tmp/c2.log"
	fi
}

case_pkgconfig
case_custom1_documented_command
case_custom1_werror
case_custom1_only_own_warnings
case_custom1_formats
case_custom1_symbols
case_template1
case_headers_alone
case_documented_types
case_installed

if [ "$failed" -ne 0 ]; then
	echo "$failed failed"
	exit 1
fi
exit 0
