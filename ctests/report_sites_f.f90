! A Fortran program with known call sites for t_report_sites_fortran.sh:
! rank 0 sends rank 1 three messages of 4 integers (site:send_f), rank 1
! receives them (site:recv_f), then every rank enters a barrier
! (site:barrier_f).  The markers give the lines the report must name.
program report_sites_f
  use mpi
  implicit none
  integer :: ierr, rank, i, buf(4), st(MPI_STATUS_SIZE)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  buf = 0
  if (rank == 0) then
    do i = 1, 3
      call MPI_Send(buf, 4, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, ierr) ! site:send_f
    end do
  else if (rank == 1) then
    do i = 1, 3
      call MPI_Recv(buf, 4, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, st, ierr) ! site:recv_f
    end do
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr) ! site:barrier_f
  call MPI_Finalize(ierr)
end program
