#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# libmapsampler.so is preloaded into every program it samples, so every
# symbol it exports can take the place of the program's own: it must
# export the calls it interposes, the metric plugin API (the allinea_*
# functions of lib/include and mapsample_io_bytes of <mapsample/plugin.h>,
# which plugins call), the calls of <mapsample/mark.h> (which programs
# call), mapsample_job_rank (which an MPI wrapper calls after MPI_Init)
# and nothing else (libunwind's check-namespace
# idea).  The allowlist below is that set; a new export
# fails here until it is added on purpose.  The calls the sampler cannot
# work without must be exported, so a build that hid everything fails
# too.  Nor may it carry AVX-512 code (no zmm register in its
# disassembly): wide vector instructions lower some CPUs' clock, which the
# program would feel (lib/log/crc32c.c, MAPLOG_CRC_NARROW).
set -eu

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/test/integration/mapsample-lib.sh"

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

lib=$top_builddir/lib/sampler/.libs/libmapsampler.so

# the metric plugin API, every function of the headers
api="allinea_get_current_time allinea_get_logical_core_count
allinea_get_physical_core_count allinea_read_config_file
allinea_set_plugin_error_message allinea_set_plugin_error_messagef
allinea_set_metric_error_message allinea_set_metric_error_messagef
allinea_safe_malloc allinea_safe_calloc allinea_safe_realloc allinea_safe_free
allinea_safe_open allinea_safe_close allinea_safe_read allinea_safe_write
allinea_safe_read_all allinea_safe_read_line allinea_safe_printf
allinea_safe_fprintf allinea_safe_vfprintf mapsample_io_bytes
mapsample_mark mapsample_region_begin mapsample_region_end
mapsample_job_rank mapsample_mpi_calls mapsample_mpi_init_done
mapsample_mpi_call"

allowed="pthread_create pthread_key_create fork execve execv execvp execvpe execl execlp execle
fexecve posix_spawn posix_spawnp exit _exit _Exit quick_exit __libc_start_main dlopen
dlclose dl_iterate_phdr sigaction signal sigprocmask pthread_sigmask
msync mincore setuid setgid seteuid setegid setreuid setregid setresuid
setresgid setgroups initgroups unshare setns $api"
# the program waits for or sends a signal (lib/sampler/sigown.c)
allowed="$allowed sigwait sigwaitinfo sigtimedwait signalfd kill killpg raise
sigqueue tgkill pthread_kill pthread_sigqueue"

# without these, threads, processes or the handler's unwinding go wrong
required="pthread_create pthread_key_create fork execve exit _exit __libc_start_main dlopen
dlclose dl_iterate_phdr sigaction sigprocmask pthread_sigmask $api"

test_exports() {
	[ -f "$lib" ] || fail "$lib missing: run 'make' first"
	nm -D --defined-only "$lib" >"$tmp/nm" ||
		fail "nm -D --defined-only $lib failed"
	# "ADDRESS TYPE NAME[@VERSION]": the names
	awk 'NF >= 3 { sub("@.*", "", $3); print $3 }' "$tmp/nm" | sort -u \
		>"$tmp/exported"
	printf '%s\n' $allowed | sort -u >"$tmp/allowed"
	extra=$(comm -23 "$tmp/exported" "$tmp/allowed" | tr '\n' ' ')
	[ -z "$extra" ] || fail "libmapsampler.so exports more than it interposes: $extra"
	printf '%s\n' $required | sort -u >"$tmp/required"
	missing=$(comm -13 "$tmp/exported" "$tmp/required" | tr '\n' ' ')
	[ -z "$missing" ] || fail "libmapsampler.so does not export: $missing"
}

command -v nm >/dev/null 2>&1 || {
	echo "SKIP: nm (binutils) is not installed"
	exit 77
}
test_no_avx512() {
	command -v objdump >/dev/null 2>&1 || return 0
	lib=$top_builddir/lib/sampler/.libs/libmapsampler.so
	n=$(objdump -d "$lib" | grep -c '%zmm' || true)
	[ "$n" = 0 ] || fail "libmapsampler.so has $n instructions on AVX-512 (zmm) registers"
}

test_exports
test_no_avx512
echo "mapsample-exports: all cases passed"
