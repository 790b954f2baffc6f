! Helper program of the papi-mpit-report tests (t_report.sh): a Fortran MPI
! program (mpif.h bindings).  "report_app_f thread" initialises with
! MPI_INIT_THREAD.  Rank 0 prints one line; the exit status is 0.
program report_app_f
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, val, total, provided
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
  val = rank + 1
  call MPI_REDUCE(val, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,i0,a,i0)', 'report_app_f: ', nprocs, ' ranks, sum ', total
  call MPI_FINALIZE(ierr)
end program report_app_f
