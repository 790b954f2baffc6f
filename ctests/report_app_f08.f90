! Helper program of the papi-mpit-report tests: a Fortran MPI program
! using the mpi_f08 module.  Rank 0 prints one line.
! t_report.sh: one report.  t_report_sites_fortran.sh: the calls of
! report_sites_f.f90 (which says what they are) at the lines marked
! site:NAME, then an MPI_Reduce (site:reduce); after the barrier, a
! communicator split (site:csplit) and duplicated (site:cdup), a datatype
! made (site:tcontig), committed (site:tcommit) and freed (site:tfree), and
! both communicators freed (site:cfree, site:cfree2).
program report_app_f08
  use mpi_f08
  implicit none
  integer :: rank, nprocs, val, total
  integer :: i, j, buf(4), p(2), q(2), vals(5), tot(5), g(3)
  integer, allocatable :: gall(:)
  type(MPI_Status) :: st
  type(MPI_Request) :: reqs(2)
  double precision :: d(5, 2)
  type(MPI_Comm) :: comms(2)
  type(MPI_Datatype) :: dt
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  allocate(gall(3 * nprocs))
  buf = 0
  d = 1.0d0
  p = rank
  vals = rank
  gall = rank
  g = rank
  if (rank == 0) then
    do i = 1, 3
      call MPI_Send(buf, 4, MPI_INTEGER, 1, 7, MPI_COMM_WORLD) ! site:send
    end do
    do i = 1, 2
      call MPI_Irecv(d(:, i), 5, MPI_DOUBLE_PRECISION, 1, 8, MPI_COMM_WORLD, reqs(i)) ! site:irecv
    end do
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE) ! site:waitall
  else if (rank == 1) then
    do i = 1, 3
      call MPI_Recv(buf, 4, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, st) ! site:recv
    end do
    do i = 1, 2
      call MPI_Isend(d(:, i), 5, MPI_DOUBLE_PRECISION, 0, 8, MPI_COMM_WORLD, reqs(i)) ! site:isend
      call MPI_Wait(reqs(i), MPI_STATUS_IGNORE) ! site:wait
    end do
  end if
  if (rank <= 1) then
    j = 1 - rank
    call MPI_Sendrecv(p, 2, MPI_INTEGER, j, 9, q, 2, MPI_INTEGER, j, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ! site:sendrecv
  end if
  call MPI_Allreduce(vals, tot, 5, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD) ! site:allreduce
  if (rank == 0) then
    call MPI_Gather(MPI_IN_PLACE, 3, MPI_INTEGER, gall, 3, MPI_INTEGER, 0, MPI_COMM_WORLD) ! site:gather_root
  else
    call MPI_Gather(g, 3, MPI_INTEGER, gall, 3, MPI_INTEGER, 0, MPI_COMM_WORLD) ! site:gather
  end if
  call MPI_Barrier(MPI_COMM_WORLD) ! site:barrier
  call MPI_Comm_split(MPI_COMM_WORLD, 0, rank, comms(1)) ! site:csplit
  call MPI_Comm_dup(comms(1), comms(2)) ! site:cdup
  call MPI_Type_contiguous(2, MPI_INTEGER, dt) ! site:tcontig
  call MPI_Type_commit(dt) ! site:tcommit
  call MPI_Type_free(dt) ! site:tfree
  call MPI_Comm_free(comms(2)) ! site:cfree
  call MPI_Comm_free(comms(1)) ! site:cfree2
  val = rank + 1
  call MPI_Reduce(val, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD) ! site:reduce
  if (rank == 0) print '(a,i0,a,i0)', 'report_app_f08: ', nprocs, ' ranks, sum ', total
  call MPI_Finalize()
end program report_app_f08
