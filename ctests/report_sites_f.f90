! A Fortran program (use mpi) with known call sites for
! t_report_sites_fortran.sh; report_app_f.f90 (mpif.h) and report_app_f08.f90
! (use mpi_f08) make the same calls.  Ranks 0 and 1:
! - rank 0 sends rank 1 three messages of 4 integers (site:send), rank 1
!   receives them (site:recv, with a status);
! - rank 1 sends rank 0 two messages of 5 doubles (site:isend, each
!   completed by site:wait with MPI_STATUS_IGNORE), rank 0 posts their
!   receives (site:irecv) and completes both in one MPI_Waitall with
!   MPI_STATUSES_IGNORE (site:waitall);
! - both exchange 2 integers (site:sendrecv, MPI_STATUS_IGNORE);
! every rank: an MPI_Allreduce of 5 integers (site:allreduce), an
! MPI_Gather of 3 integers, in place at the root (site:gather_root) and
! from the others (site:gather), and a barrier (site:barrier).
! The markers give the lines the report must name.
program report_sites_f
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, i, buf(4), st(MPI_STATUS_SIZE), reqs(2)
  integer :: j, p(2), q(2), vals(5), tot(5), g(3)
  integer, allocatable :: gall(:)
  double precision :: d(5, 2)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  allocate(gall(3 * nprocs))
  buf = 0
  d = 1.0d0
  p = rank
  vals = rank
  gall = rank
  g = rank
  if (rank == 0) then
    do i = 1, 3
      call MPI_Send(buf, 4, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, ierr) ! site:send
    end do
    do i = 1, 2
      call MPI_Irecv(d(1, i), 5, MPI_DOUBLE_PRECISION, 1, 8, MPI_COMM_WORLD, reqs(i), ierr) ! site:irecv
    end do
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr) ! site:waitall
  else if (rank == 1) then
    do i = 1, 3
      call MPI_Recv(buf, 4, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, st, ierr) ! site:recv
    end do
    do i = 1, 2
      call MPI_Isend(d(1, i), 5, MPI_DOUBLE_PRECISION, 0, 8, MPI_COMM_WORLD, reqs(i), ierr) ! site:isend
      call MPI_Wait(reqs(i), MPI_STATUS_IGNORE, ierr) ! site:wait
    end do
  end if
  if (rank <= 1) then
    j = 1 - rank
    call MPI_Sendrecv(p, 2, MPI_INTEGER, j, 9, q, 2, MPI_INTEGER, j, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr) ! site:sendrecv
  end if
  call MPI_Allreduce(vals, tot, 5, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr) ! site:allreduce
  if (rank == 0) then
    call MPI_Gather(MPI_IN_PLACE, 3, MPI_INTEGER, gall, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr) ! site:gather_root
  else
    call MPI_Gather(g(1), 3, MPI_INTEGER, gall, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr) ! site:gather
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr) ! site:barrier
  call MPI_Finalize(ierr)
end program
