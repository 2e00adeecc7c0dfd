/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mpiwrap_file: the MPI-IO wrappers of libmapsample-mpiwrap.so (mpiwrap.c
 * has the design notes): MPI_File_open, _close, _sync, _set_view, and
 * the reads and writes with an explicit offset (_at), collective (_all,
 * _at_all), through the shared pointer (_shared, _ordered) and their
 * non-blocking I- forms.
 *
 * Class MPIW_FILE: their time is time in MPI (com.mapsample.metrics.
 * mpi.time), but neither collective nor point-to-point.  Bytes: a write
 * counts as sent, a read as received, in the MPI call statistics: a
 * blocking call the bytes its status says it moved (fewer than asked at
 * the end of a file), an I- form count * size of its type, when posted.
 * They are not messages: the plugin leaves them out of mpi.sent and
 * mpi.received (mpi.c).
 */
#include <stdint.h>

#include "mpiwrap_i.h"

/* FILE_RW(fn, (params), (args)): a blocking read or write, status st
 * (the program's, or ours for MPI_STATUS_IGNORE), its bytes from the
 * status into sent (write) or received (read). */
#define FILE_RW(fn, write, params, args)                                   \
	EXPORT int MPI_##fn params                                         \
	{                                                                  \
		REAL(fn, int (*)params);                                   \
		struct mpiw_status own;                                    \
		void *st = ignored(status) ? (void *)&own : status;        \
		uint64_t t0 = enter(W_##fn);                               \
		int rc = fn##_p args;                                      \
		uint64_t b = rc ? 0 : mpiw_received(st, dt);               \
		leave(W_##fn, t0, (write) ? b : 0, (write) ? 0 : b);       \
		return rc;                                                 \
	}

/* FILE_I(fn, write, (params), (args)): a non-blocking one, the size
 * posted. */
#define FILE_I(fn, write, params, args)                                    \
	EXPORT int MPI_##fn params                                         \
	{                                                                  \
		REAL(fn, int (*)params);                                   \
		uint64_t t0 = enter(W_##fn);                               \
		int rc = fn##_p args;                                      \
		uint64_t b = rc ? 0 : mpiw_bytes(count, dt);               \
		leave(W_##fn, t0, (write) ? b : 0, (write) ? 0 : b);       \
		return rc;                                                 \
	}

#define A_R mpiw_h fh, void *buf, int count, mpiw_h dt, void *status
#define A_W mpiw_h fh, const void *buf, int count, mpiw_h dt, void *status
#define V_RW (fh, buf, count, dt, st)
FILE_RW(File_read, 0, (A_R), V_RW)
FILE_RW(File_read_all, 0, (A_R), V_RW)
FILE_RW(File_read_shared, 0, (A_R), V_RW)
FILE_RW(File_read_ordered, 0, (A_R), V_RW)
FILE_RW(File_write, 1, (A_W), V_RW)
FILE_RW(File_write_all, 1, (A_W), V_RW)
FILE_RW(File_write_shared, 1, (A_W), V_RW)
FILE_RW(File_write_ordered, 1, (A_W), V_RW)

#define A_RAT mpiw_h fh, mpiw_off off, void *buf, int count, mpiw_h dt, \
	void *status
#define A_WAT mpiw_h fh, mpiw_off off, const void *buf, int count, mpiw_h dt, \
	void *status
#define V_RWAT (fh, off, buf, count, dt, st)
FILE_RW(File_read_at, 0, (A_RAT), V_RWAT)
FILE_RW(File_read_at_all, 0, (A_RAT), V_RWAT)
FILE_RW(File_write_at, 1, (A_WAT), V_RWAT)
FILE_RW(File_write_at_all, 1, (A_WAT), V_RWAT)

#define A_IR mpiw_h fh, void *buf, int count, mpiw_h dt, void *req
#define A_IW mpiw_h fh, const void *buf, int count, mpiw_h dt, void *req
#define V_I (fh, buf, count, dt, req)
FILE_I(File_iread, 0, (A_IR), V_I)
FILE_I(File_iread_all, 0, (A_IR), V_I)
FILE_I(File_iread_shared, 0, (A_IR), V_I)
FILE_I(File_iwrite, 1, (A_IW), V_I)
FILE_I(File_iwrite_all, 1, (A_IW), V_I)
FILE_I(File_iwrite_shared, 1, (A_IW), V_I)

#define A_IRAT mpiw_h fh, mpiw_off off, void *buf, int count, mpiw_h dt, \
	void *req
#define A_IWAT mpiw_h fh, mpiw_off off, const void *buf, int count, \
	mpiw_h dt, void *req
#define V_IAT (fh, off, buf, count, dt, req)
FILE_I(File_iread_at, 0, (A_IRAT), V_IAT)
FILE_I(File_iread_at_all, 0, (A_IRAT), V_IAT)
FILE_I(File_iwrite_at, 1, (A_IWAT), V_IAT)
FILE_I(File_iwrite_at_all, 1, (A_IWAT), V_IAT)

/* opening, closing, syncing, the view: timed, no bytes */
PASS5(File_open, mpiw_h, const char *, int, mpiw_h, void *)
PASS1(File_close, void *)
PASS1(File_sync, mpiw_h)
PASS6(File_set_view, mpiw_h, mpiw_off, mpiw_h, mpiw_h, const char *, mpiw_h)
