! report_hang_f.f90 with mpi_f08 (t_report_hang_fortran.sh): every rank but
! the last enters an MPI_Allreduce on a duplicate of MPI_COMM_WORLD
! (site:allreduce); the last waits for rank 0 (site:recv5), forever.
program report_hang_f08
  use mpi_f08
  implicit none
  type(MPI_Comm), save :: dup
  integer :: rank, nprocs, in, out, buf
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  in = 1
  if (rank < nprocs - 1) then
    call MPI_Allreduce(in, out, 1, MPI_INTEGER, MPI_SUM, dup) ! site:allreduce
  else
    call MPI_Recv(buf, 1, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ! site:recv5
  end if
  call MPI_Finalize()
end program
