! A Fortran program (use mpi) that never reaches MPI_Finalize, for
! t_report_hang_fortran.sh: every rank but the last enters an MPI_Allreduce
! on a duplicate of MPI_COMM_WORLD made in Fortran (site:allreduce); the
! last waits for a message from rank 0 that never comes (site:recv5).
! report_hang_f08.f90 does the same with mpi_f08.
program report_hang_f
  use mpi
  implicit none
  integer, save :: ierr, dup
  integer :: rank, nprocs, in, out, buf, st(MPI_STATUS_SIZE)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  in = 1
  if (rank < nprocs - 1) then
    call MPI_Allreduce(in, out, 1, MPI_INTEGER, MPI_SUM, dup, ierr) ! site:allreduce
  else
    call MPI_Recv(buf, 1, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, st, ierr) ! site:recv5
  end if
  call MPI_Finalize(ierr)
end program
