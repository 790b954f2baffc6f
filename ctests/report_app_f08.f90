! Helper program of the papi-mpit-report tests (t_report.sh): a Fortran MPI
! program using the mpi_f08 module.  Rank 0 prints one line.
program report_app_f08
  use mpi_f08
  implicit none
  integer :: rank, nprocs, val, total
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  val = rank + 1
  call MPI_Reduce(val, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
  if (rank == 0) print '(a,i0,a,i0)', 'report_app_f08: ', nprocs, ' ranks, sum ', total
  call MPI_Finalize()
end program report_app_f08
