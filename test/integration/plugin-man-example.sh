#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# plugin-man-example: the metric plugin of mapsample-plugin(3)'s EXAMPLES
# section compiles, exports what its definition file names, and works
# against lib/pluginapi, so the page cannot drift from the interface.
#
#   plugin-man-example.sh [PAGE]    default: $top_srcdir/man/mapsample-plugin.3
#
# From the page's EXAMPLES section: the C block (the one with an #include
# line) and the XML block (the one with <metricdefinitions>), roff escapes
# undone.  Checks:
#   - the plugin compiles against the source tree's headers with
#     -std=gnu11 -Wall -Wextra -Werror -fPIC -shared, and with the page's
#     own command (pkg-config --cflags mapsample-plugin, the build tree's
#     uninstalled .pc);
#   - the library defines the getter that the XML's functionName names and
#     the template's two functions, and leaves the allinea_* calls
#     undefined (the sampler provides them); the XML's sharedLibrary is the
#     name the page builds;
#   - a host program linked with lib/pluginapi/libpluginapi.la loads it,
#     runs allinea_plugin_initialize() and the getter, which returns the
#     /proc/loadavg value the page describes, for the default 1-minute
#     average and for "minutes = 15" in the metric's section of a
#     configuration file; "minutes = 7" makes initialize fail with the
#     page's message.
#
# Environment: top_srcdir, top_builddir (exported by make check; default
# the script's ../.. and .), PLUGIN_HEADERS_CC (the build's compiler,
# exported by test/integration/local.mk), else CC (default cc).  Exit 77
# (skip) without a C compiler, nm or /proc/loadavg.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "${top_srcdir:-$here/../..}" && pwd)
top_builddir=$(cd "${top_builddir:-.}" && pwd)
cc=${PLUGIN_HEADERS_CC:-${CC:-cc}}
page=${1:-$top_srcdir/man/mapsample-plugin.3}
LC_ALL=C
export LC_ALL

for tool in "${cc%% *}" nm; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: no $tool to build and inspect the example plugin"
		exit 77
	fi
done
if [ ! -r /proc/loadavg ]; then
	echo "SKIP: no /proc/loadavg for the example plugin to read"
	exit 77
fi
libpluginapi=$top_builddir/lib/pluginapi/libpluginapi.la
if [ ! -e "$libpluginapi" ]; then
	echo "not ok - $libpluginapi is missing: run make first"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/plugin-man-example.XXXXXX")
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

# extract PAGE DIR: writes the EXAMPLES section's C block to DIR/plugin.c
# and its XML block to DIR/plugin.xml, with the roff escapes undone.
# Fails on an escape it does not know, rather than guess.
extract() {
	awk -v dir="$2" -v page="$1" '
	function bad(what) {
		printf "%s:%d: %s\n", page, FNR, what > "/dev/stderr"
		err = 1
	}
	function demdoc(s,    r, i, c, n) {
		r = ""
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c != "\\") {
				r = r c
				continue
			}
			n = substr(s, ++i, 1)
			if (n == "e" || n == "\\")
				r = r "\\"
			else if (n == "-")
				r = r "-"
			else if (n == "&")
				continue
			else if (n == "(" && substr(s, i + 1, 2) in ch) {
				r = r ch[substr(s, i + 1, 2)]
				i += 2
			} else
				bad("unknown escape \\" n)
		}
		return r
	}
	BEGIN {
		ch["aq"] = "\047"; ch["dq"] = "\""; ch["ti"] = "~"
		ch["ha"] = "^"; ch["rs"] = "\\"; ch["mi"] = "-"
	}
	/^\.Sh / {
		ex = ($0 ~ /^\.Sh "?EXAMPLES"?$/)
		next
	}
	ex && !inblock && /^\.Bd -literal/ {
		inblock = 1
		nl = 0
		next
	}
	inblock && /^\.Ed/ {
		inblock = 0
		kind = ""
		for (k = 1; k <= nl; k++) {
			if (line[k] ~ /^[ \t]*#[ \t]*include[ \t]*[<"]/)
				kind = "c"
			if (line[k] ~ /<metricdefinitions/)
				kind = "xml"
		}
		if (kind != "") {
			f = dir "/plugin." kind
			if (kind in seen)
				bad("more than one " kind " block in EXAMPLES")
			seen[kind] = 1
			for (k = 1; k <= nl; k++)
				print line[k] > f
			close(f)
		}
		next
	}
	inblock {
		if ($0 ~ /^\.\\"/)
			next
		if ($0 ~ /^[.\047]/)
			bad("request or macro inside a literal block: " $0)
		line[++nl] = demdoc($0)
	}
	END {
		if (!("c" in seen))
			bad("no C block (with an #include line) in EXAMPLES")
		if (!("xml" in seen))
			bad("no <metricdefinitions> block in EXAMPLES")
		exit err
	}' "$1"
}

# xml_attr NAME: the value of the NAME="..." attribute of the XML (the
# example has one of each it is asked about)
xml_attr() {
	tr '\n' ' ' <"$tmp/plugin.xml" |
		sed -n "s/.*$1=\"\\([^\"]*\\)\".*/\\1/p"
}

# xml_elem NAME: the text of the <NAME> element of the XML (one)
xml_elem() {
	tr '\n' ' ' <"$tmp/plugin.xml" |
		sed -n "s/.*<$1>[[:space:]]*\\([^<]*[^<[:space:]]\\)[[:space:]]*<\\/$1>.*/\\1/p"
}

case_compile() {
	if $cc -std=gnu11 -Wall -Wextra -Werror -fPIC -shared \
		-I"$top_srcdir/lib/include" "$tmp/plugin.c" \
		-o "$tmp/lib.so" >"$tmp/cc.log" 2>&1; then
		pass "the example plugin compiles with -Wall -Wextra -Werror"
	else
		fail "the example plugin does not compile cleanly"
		show "$tmp/cc.log"
	fi
	# the page's own command, through the build tree's .pc
	if ! command -v pkg-config >/dev/null 2>&1; then
		echo "# no pkg-config: the page's build command not run"
		return
	fi
	if ! pcflags=$(PKG_CONFIG_PATH=$top_builddir pkg-config --cflags \
		mapsample-plugin 2>"$tmp/pc.log"); then
		fail "pkg-config --cflags mapsample-plugin"
		show "$tmp/pc.log"
		return
	fi
	mkdir "$tmp/pc"
	cp "$tmp/plugin.c" "$tmp/pc/$src"
	# shellcheck disable=SC2086 # $cc and $pcflags are words
	if (cd "$tmp/pc" && $cc -fPIC -shared $pcflags -Wall -Werror "$src" \
		-o "$lib") >"$tmp/pc.log" 2>&1 && [ -f "$tmp/pc/$lib" ]; then
		pass "the page's command builds $lib: cc -fPIC -shared" \
			"\$(pkg-config --cflags mapsample-plugin) $src -o $lib"
	else
		fail "the page's command: cc -fPIC -shared \$(pkg-config" \
			"--cflags mapsample-plugin) $src -o $lib"
		show "$tmp/pc.log"
	fi
}

case_symbols() {
	[ -f "$tmp/lib.so" ] || return 0	# did not compile: said already
	getter=$(xml_attr functionName)
	if [ -z "$getter" ]; then
		fail "the example's XML has no functionName"
		return
	fi
	nm -D --defined-only "$tmp/lib.so" | awk '$2 == "T" { print $3 }' |
		sort >"$tmp/defined"
	for f in allinea_plugin_initialize allinea_plugin_cleanup "$getter"; do
		if grep -qx "$f" "$tmp/defined"; then
			pass "the plugin defines $f"
		else
			fail "the plugin does not define $f (functionName of" \
				"the example's XML, or a template function)"
			show "$tmp/defined"
		fi
	done
	if grep -q '^allinea_safe\|^allinea_get\|^allinea_set\|^allinea_read' \
		"$tmp/defined"; then
		fail "the plugin defines API functions the sampler provides"
	fi
	nm -D --undefined-only "$tmp/lib.so" | awk '{ print $2 }' |
		grep '^allinea_' >"$tmp/undefined" || :
	if [ -s "$tmp/undefined" ]; then
		pass "the plugin leaves $(wc -l <"$tmp/undefined") API" \
			"functions to the sampler"
	else
		fail "the plugin calls no API function"
	fi
	if [ "$(xml_elem sharedLibrary)" = "$lib" ]; then
		pass "the XML's sharedLibrary is $lib, the library the page builds"
	else
		fail "the XML's sharedLibrary '$(xml_elem sharedLibrary)' is" \
			"not '$lib', the library the page builds"
	fi
}

# The host: loads the plugin, initializes it, calls the getter once and
# prints the value; errors the plugin reports go to standard error.
write_host() {
	cat >"$tmp/host.c" <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

#include "allinea_metric_plugin_api.h"
#include "pluginapi/pluginapi.h"

static void plugin_error(plugin_id_t plugin, int code, const char *msg)
{
	fprintf(stderr, "plugin error %d: %s\n", code, msg);
	(void)plugin;
}

static void metric_error(metric_id_t metric, int code, const char *msg)
{
	fprintf(stderr, "metric error %d: %s\n", code, msg);
	(void)metric;
}

/* passed down to lib/pluginapi, as the sampler passes its own */
static const struct pluginapi_host host = {
	.ph_plugin_error = plugin_error,
	.ph_metric_error = metric_error,
};

/* Every API function, so that the whole of libpluginapi is linked in
 * and exported to the plugin. */
static void *const api[] = {
	(void *)allinea_get_current_time,
	(void *)allinea_get_logical_core_count,
	(void *)allinea_get_physical_core_count,
	(void *)allinea_read_config_file,
	(void *)allinea_safe_malloc, (void *)allinea_safe_calloc,
	(void *)allinea_safe_realloc, (void *)allinea_safe_free,
	(void *)allinea_safe_open, (void *)allinea_safe_close,
	(void *)allinea_safe_read, (void *)allinea_safe_read_all,
	(void *)allinea_safe_read_line, (void *)allinea_safe_write,
	(void *)allinea_safe_printf, (void *)allinea_safe_fprintf,
	(void *)allinea_safe_vfprintf,
	(void *)allinea_set_plugin_error_message,
	(void *)allinea_set_plugin_error_messagef,
	(void *)allinea_set_metric_error_message,
	(void *)allinea_set_metric_error_messagef,
};

int main(int argc, char *argv[])
{
	void *h;
	int (*init)(plugin_id_t, void *);
	int (*get)(metric_id_t, struct timespec *, double *);
	struct timespec t = allinea_get_current_time();
	double v = -1;

	if (argc != 3)
		return 2;
	pluginapi_set_host(&host);
	if (argv[0][0] == '\0')		/* never: keeps api[] */
		printf("%p\n", api[0]);
	h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		fprintf(stderr, "%s\n", dlerror());
		return 2;
	}
	*(void **)&init = dlsym(h, "allinea_plugin_initialize");
	*(void **)&get = dlsym(h, argv[2]);
	if (init == NULL || get == NULL) {
		fprintf(stderr, "missing symbol\n");
		return 2;
	}
	if (init(1, NULL) != 0)
		return 3;
	if (get(1, &t, &v) != 0)
		return 4;
	printf("%.6f\n", v);
	return pluginapi_depth == 0 ? 0 : 5;
}
EOF
}

# expect_value FIELD: runs the host and compares its value with field
# FIELD of /proc/loadavg per online CPU, in percent (read before and after:
# the kernel updates the averages every 5 seconds).
expect_value() {
	cores=$(getconf _NPROCESSORS_ONLN)
	before=$(cut -d' ' -f"$1" /proc/loadavg)
	rc=0
	"$tmp/host" "$tmp/lib.so" "$getter" >"$tmp/out" 2>"$tmp/err" || rc=$?
	after=$(cut -d' ' -f"$1" /proc/loadavg)
	got=$(cat "$tmp/out")
	if [ "$rc" = 0 ] && [ ! -s "$tmp/err" ] &&
	    awk -v g="$got" -v b="$before" -v a="$after" -v n="$cores" '
		function near(x) { x = x - g; return x < 1e-6 && x > -1e-6 }
		BEGIN { exit !(near(100 * b / n) || near(100 * a / n)) }'; then
		pass "$2: the getter returns $got (field $1 of" \
			"/proc/loadavg, per core, in percent)"
	else
		fail "$2: host exit $rc, value '$got'; want 100 * $before" \
			"/ $cores"
		show "$tmp/err"
	fi
}

case_run() {
	write_host
	if ! "$top_builddir/libtool" --quiet --tag=CC --mode=link $cc \
		-std=gnu11 -Wall -Wextra -Werror -pthread \
		-I"$top_srcdir/lib/include" -I"$top_srcdir/lib" \
		-export-dynamic -o "$tmp/host" "$tmp/host.c" "$libpluginapi" \
		-ldl >"$tmp/host.log" 2>&1; then
		fail "the test's host program does not build"
		show "$tmp/host.log"
		return
	fi
	conf=$tmp/plugins.conf
	MAPSAMPLE_PLUGIN_CONFIG=$conf
	export MAPSAMPLE_PLUGIN_CONFIG
	metric=$(xml_attr 'metric id')

	: >"$conf"
	expect_value 1 "no setting"
	printf 'minutes = 5\n[%s]\nminutes = 15\n' "$metric" >"$conf"
	expect_value 3 "minutes = 15 in [$metric]"
	printf '[other.metric]\nminutes = 15\n' >"$conf"
	expect_value 1 "minutes = 15 in another section"

	printf '[%s]\nminutes = 7\n' "$metric" >"$conf"
	rc=0
	"$tmp/host" "$tmp/lib.so" "$getter" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" = 3 ] &&
	    grep -qx "plugin error 22: minutes = 7: want 1, 5 or 15" \
		"$tmp/err"; then
		pass "minutes = 7: initialize fails with the page's message"
	else
		fail "minutes = 7: host exit $rc, want 3 and the plugin error" \
			"'minutes = 7: want 1, 5 or 15' (EINVAL)"
		show "$tmp/err"
	fi
}

if ! extract "$page" "$tmp" 2>"$tmp/extract.err"; then
	fail "$(basename "$page"): EXAMPLES cannot be extracted"
	show "$tmp/extract.err"
	exit 1
fi
# the names the page's build command uses
lib=$(sed -n 's/.* -o \(lib[A-Za-z0-9_]*\.so\).*/\1/p' "$page" | head -1)
src=$(sed -n 's/^ *\([A-Za-z0-9_]*\.c\) -o lib.*/\1/p' "$page" | head -1)
if [ -z "$lib" ] || [ -z "$src" ]; then
	fail "$(basename "$page"): no 'cc ... SRC.c -o LIB.so' build command" \
		"in EXAMPLES"
	exit 1
fi
case_compile
case_symbols
if [ "$failed" -eq 0 ]; then
	case_run
fi

if [ "$failed" -ne 0 ]; then
	echo "$failed check(s) failed"
	exit 1
fi
exit 0
