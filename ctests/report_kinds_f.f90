! More of the wrapped calls' kinds from Fortran (use mpi), for
! t_report_sites_fortran.sh, at 2 ranks, each at a line marked site:NAME
! (the check's expected calls, bytes sent, bytes received, summed over the
! ranks, are in brackets):
! - persistent: rank 0 sends 8 integers twice with one request (psend
!   [1, 64, 0], started at pstart [2, 0, 0], completed at pwait [2, 0, 0]);
!   rank 1 receives them with one (precv [1, 0, 64], rstart [2, 0, 0],
!   rwait [2, 0, 0]); each frees its request (pfree, rfree [1, 0, 0]);
! - MPI_Waitany and MPI_Waitsome: rank 0 sends 3 integers 4 times (isend
!   [4, 48, 0], completed by waitall [1, 0, 0]); rank 1 posts 2 receives
!   (irecv_any [2, 0, 24]) completed by MPI_Waitany with a status (waitany
!   [2, 0, 0]), then 2 (irecv_some [2, 0, 24]) completed by MPI_Waitsome
!   until both are done (waitsome: 1 or 2 calls, bytes 0);
! - matched probe: rank 0 sends 5 integers (send_m [1, 20, 0]); rank 1
!   MPI_Mprobe (mprobe [1, 0, 0]) then MPI_Mrecv (mrecv [1, 0, 20]);
! - collectives: MPI_Bcast of 6 integers from root 1 (bcast [2, 24, 0]:
!   the root's), MPI_Scatterv from root 0 of 1 and 2 integers (scatterv
!   [2, 12, 0]), MPI_Alltoallw of 2 integers to each rank (alltoallw
!   [2, 32, 0]), MPI_Ibarrier completed by MPI_Wait (ibarrier [2, 0, 0],
!   ibwait [2, 0, 0]).
program report_kinds_f
  use mpi
  implicit none
  ! saved, not on the stack: gfortran 12 gives a call whose arguments are
  ! all stack variables no line of its own (MPI_Start(req, ierr) would be
  ! named by the next statement's line)
  integer, save :: ierr, req
  integer :: rank, nprocs, i, n, idx, reqs(4), msg, st(MPI_STATUS_SIZE)
  integer :: sts(MPI_STATUS_SIZE, 2), idxs(2), done
  integer :: b8(8), b3(3, 4), b5(5), b6(6), sc(3), r2(2), counts(2), displs(2)
  integer :: wc(2), wd(2), wt(2), aw(4), bw(4)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  b8 = 1; b3 = 2; b5 = 3; b6 = 4; sc = 5; aw = 6
  if (rank == 0) then
    call MPI_Send_init(b8, 8, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, req, ierr) ! site:psend
    do i = 1, 2
      call MPI_Start(req, ierr) ! site:pstart
      call MPI_Wait(req, st, ierr) ! site:pwait
    end do
    call MPI_Request_free(req, ierr) ! site:pfree
    do i = 1, 4
      call MPI_Isend(b3(1, i), 3, MPI_INTEGER, 1, 2, MPI_COMM_WORLD, reqs(i), ierr) ! site:isend
    end do
    call MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE, ierr) ! site:waitall
    call MPI_Send(b5, 5, MPI_INTEGER, 1, 3, MPI_COMM_WORLD, ierr) ! site:send_m
  else if (rank == 1) then
    call MPI_Recv_init(b8, 8, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, req, ierr) ! site:precv
    do i = 1, 2
      call MPI_Start(req, ierr) ! site:rstart
      call MPI_Wait(req, MPI_STATUS_IGNORE, ierr) ! site:rwait
    end do
    call MPI_Request_free(req, ierr) ! site:rfree
    do i = 1, 2
      call MPI_Irecv(b3(1, i), 3, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, reqs(i), ierr) ! site:irecv_any
    end do
    do i = 1, 2
      call MPI_Waitany(2, reqs, idx, st, ierr) ! site:waitany
    end do
    do i = 3, 4
      call MPI_Irecv(b3(1, i), 3, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, reqs(i - 2), ierr) ! site:irecv_some
    end do
    done = 0
    do while (done < 2)
      call MPI_Waitsome(2, reqs, n, idxs, sts, ierr) ! site:waitsome
      if (n /= MPI_UNDEFINED) done = done + n
    end do
    call MPI_Mprobe(0, 3, MPI_COMM_WORLD, msg, st, ierr) ! site:mprobe
    call MPI_Mrecv(b5, 5, MPI_INTEGER, msg, st, ierr) ! site:mrecv
  end if
  call MPI_Bcast(b6, 6, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr) ! site:bcast
  counts = (/ 1, 2 /)
  displs = (/ 0, 1 /)
  call MPI_Scatterv(sc, counts, displs, MPI_INTEGER, r2, rank + 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr) ! site:scatterv
  wc = 2
  wd = (/ 0, 8 /)
  wt = MPI_INTEGER
  call MPI_Alltoallw(aw, wc, wd, wt, bw, wc, wd, wt, MPI_COMM_WORLD, ierr) ! site:alltoallw
  call MPI_Ibarrier(MPI_COMM_WORLD, req, ierr) ! site:ibarrier
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr) ! site:ibwait
  call MPI_Finalize(ierr)
end program
