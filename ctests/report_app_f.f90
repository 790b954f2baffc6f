! Helper program of the papi-mpit-report tests: a Fortran MPI program
! (mpif.h bindings).  "report_app_f thread" initialises with
! MPI_INIT_THREAD.  Rank 0 prints one line; the exit status is 0.
! t_report.sh: one report, the same stdout as without the tool.
! t_report_sites_fortran.sh: the calls of report_sites_f.f90 (which says
! what they are) at the lines marked site:NAME, then an MPI_REDUCE
! (site:reduce); after the barrier, a communicator split
! (site:csplit) and duplicated (site:cdup), a datatype made (site:tcontig),
! committed (site:tcommit) and freed (site:tfree), and both communicators
! freed (site:cfree, site:cfree2).
program report_app_f
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, val, total, provided
  integer :: i, j, buf(4), st(MPI_STATUS_SIZE), reqs(2), p(2), q(2), vals(5), tot(5), g(3)
  integer :: comms(2), dt
  integer, allocatable :: gall(:)
  double precision :: d(5, 2)
  character(len=16) :: arg
  arg = ''
  if (command_argument_count() > 0) call get_command_argument(1, arg)
  if (arg == 'thread') then
    call MPI_INIT_THREAD(MPI_THREAD_FUNNELED, provided, ierr)
  else
    call MPI_INIT(ierr)
  end if
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
  allocate(gall(3 * nprocs))
  buf = 0
  d = 1.0d0
  p = rank
  vals = rank
  gall = rank
  g = rank
  if (rank == 0) then
    do i = 1, 3
      call MPI_SEND(buf, 4, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, ierr) ! site:send
    end do
    do i = 1, 2
      call MPI_IRECV(d(1, i), 5, MPI_DOUBLE_PRECISION, 1, 8, MPI_COMM_WORLD, reqs(i), ierr) ! site:irecv
    end do
    call MPI_WAITALL(2, reqs, MPI_STATUSES_IGNORE, ierr) ! site:waitall
  else if (rank == 1) then
    do i = 1, 3
      call MPI_RECV(buf, 4, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, st, ierr) ! site:recv
    end do
    do i = 1, 2
      call MPI_ISEND(d(1, i), 5, MPI_DOUBLE_PRECISION, 0, 8, MPI_COMM_WORLD, reqs(i), ierr) ! site:isend
      call MPI_WAIT(reqs(i), MPI_STATUS_IGNORE, ierr) ! site:wait
    end do
  end if
  if (rank <= 1) then
    j = 1 - rank
    call MPI_SENDRECV(p, 2, MPI_INTEGER, j, 9, q, 2, MPI_INTEGER, j, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr) ! site:sendrecv
  end if
  call MPI_ALLREDUCE(vals, tot, 5, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr) ! site:allreduce
  if (rank == 0) then
    call MPI_GATHER(MPI_IN_PLACE, 3, MPI_INTEGER, gall, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr) ! site:gather_root
  else
    call MPI_GATHER(g(1), 3, MPI_INTEGER, gall, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr) ! site:gather
  end if
  call MPI_BARRIER(MPI_COMM_WORLD, ierr) ! site:barrier
  call MPI_COMM_SPLIT(MPI_COMM_WORLD, 0, rank, comms(1), ierr) ! site:csplit
  call MPI_COMM_DUP(comms(1), comms(2), ierr) ! site:cdup
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, dt, ierr) ! site:tcontig
  call MPI_TYPE_COMMIT(dt, ierr) ! site:tcommit
  call MPI_TYPE_FREE(dt, ierr) ! site:tfree
  call MPI_COMM_FREE(comms(2), ierr) ! site:cfree
  call MPI_COMM_FREE(comms(1), ierr) ! site:cfree2
  val = rank + 1
  call MPI_REDUCE(val, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr) ! site:reduce
  if (rank == 0) print '(a,i0,a,i0)', 'report_app_f: ', nprocs, ' ranks, sum ', total
  call MPI_FINALIZE(ierr)
end program report_app_f
