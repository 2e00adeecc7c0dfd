! SPDX-License-Identifier: BSD-2-Clause
!
! mpifort: a Fortran MPI program (mpif.h bindings) with known sizes, for
! test/integration/metrics-mpi-more.sh, which holds the bytes each rank
! must show.  On 4 ranks: a ring of 1000 doubles (MPI_ISEND, MPI_RECV
! with MPI_STATUS_IGNORE, MPI_WAIT), 300 integers from every rank but 0
! to rank 0 (MPI_SEND; MPI_RECV from MPI_ANY_SOURCE with a status),
! MPI_ALLREDUCE of 500 doubles twice, MPI_BCAST of 250 doubles and
! MPI_REDUCE of 100 at rank 0, MPI_BARRIER, and a ring of 100 integers
! (MPI_IRECV, MPI_SEND, MPI_WAITALL).  Exits 1 when data arrive wrong.
program mpifort
  implicit none
  include 'mpif.h'
  integer :: ierr, me, np, i, to, from, req, reqs(1)
  integer :: st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 1)
  integer :: ia(300), ib(300), ra(100), rb(100)
  double precision :: a(1000), b(1000)

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  if (np /= 4) then
    if (me == 0) print *, 'mpifort: run it on 4 ranks'
    call MPI_FINALIZE(ierr)
    stop 2
  end if
  to = mod(me + 1, np)
  from = mod(me + np - 1, np)
  do i = 1, 1000
    a(i) = me * 1000 + i
  end do
  ia = me
  ra = me

  call MPI_ISEND(a, 1000, MPI_DOUBLE_PRECISION, to, 1, MPI_COMM_WORLD, req, ierr)
  call MPI_RECV(b, 1000, MPI_DOUBLE_PRECISION, from, 1, MPI_COMM_WORLD, &
                MPI_STATUS_IGNORE, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  if (b(1) /= from * 1000 + 1) call fail('ring of doubles')

  if (me == 0) then
    do i = 1, np - 1
      call MPI_RECV(ib, 300, MPI_INTEGER, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, st, ierr)
      if (ib(1) /= st(MPI_SOURCE)) call fail('integers to rank 0')
    end do
  else
    call MPI_SEND(ia, 300, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, ierr)
  end if

  call MPI_ALLREDUCE(a, b, 500, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_ALLREDUCE(a, b, 500, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_BCAST(a, 250, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  call MPI_REDUCE(a, b, 100, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)

  call MPI_IRECV(rb, 100, MPI_INTEGER, from, 3, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_SEND(ra, 100, MPI_INTEGER, to, 3, MPI_COMM_WORLD, ierr)
  call MPI_WAITALL(1, reqs, sts, ierr)
  if (rb(1) /= from) call fail('ring of integers')

  call MPI_FINALIZE(ierr)
  if (me == 0) print '(a, i0, a)', 'mpifort: ', np, ' ranks done'

contains

  subroutine fail(what)
    character(*), intent(in) :: what
    print *, 'mpifort: rank ', me, ': ', what
    call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
  end subroutine fail

end program mpifort
